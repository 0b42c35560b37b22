// The move patterns that define each ECCO code (the classification xqbase.com
// publishes with its ECCO catalogue; source and licence: data/books/SOURCES.md),
// written as data in a small rule language that ecco.ts reads. docs/OPENINGS.md
// describes the language; in short:
//
//   rule NAME = NODE                 a named node (`@NAME` uses it)
//   NODE:  C48                       the answer
//          @NAME                     another rule
//          at B5 { M M -> NODE ... * -> NODE }
//                                    by the move at Red's (R) or Black's (B) turn
//                                    of round 5 (rounds count from 1)
//          if TEST ... then NODE else NODE
//                                    every TEST holds:  R2=N2+3|R1.2 (the move
//                                    at R2 is one of those), R2-5=... (every
//                                    move of rounds 2-5 is), set(M M ...) (the
//                                    first moves of each side, in any order, are
//                                    those listed in game order), ?f / !f (flag
//                                    f is set / not set)
//          scan R2-10 { M M -> ACTION... ; * -> ACTION... ; } end NODE
//                                    Red's (Black's) moves of rounds 2-10 in
//                                    turn; a move's actions run left to right:
//                                    skip (next move), +f / -f (set, clear a
//                                    flag), ?f NODE / !f NODE (the answer if f
//                                    is set / not set), NODE (the answer); END's
//                                    NODE when no move answered. r-1, b0 name
//                                    the rounds relative to the scanned one.
//
// Moves are in WXF with the piece letters K A B N R C P: piece, file, direction
// (+ forward, - backward, . sideways), then the file reached (sideways, and
// advisors, elephants and horses) or the ranks moved. Files count from each
// side's right, as the players see them. A game whose first move starts left
// of the middle file is classified as its mirror image; a missing move (a
// game under 20 plies) matches nothing but `*`.

export const ECCO_RULES = `
rule ecco = at R1 {
  B3+5 -> at B1 {
    N2+3 -> at R2 { P7+1 -> A16  P3+1 -> A15  * -> A14 }
    C2.4 -> at R2 { P7+1 -> A26  P3+1 -> A25  R9+1 -> A24  N8+9 -> A23  N8+7 -> A22  * -> A21 }
    C8.4 -> at R2 {
      N2+3 -> if B2=N8+7 R3=R1.2 B3=P7+1 then at R4 { P7+1 -> A34  C2.1 -> A33  * -> A32 } else A31
      * -> A30 }
    P7+1 -> at R2 { P7+1 -> A38  N8+7 -> A37  * -> A36 }
    C8.5 -> scan R2-10 { N2+3 -> ?rn7 A28 +rn3 ; N8+7 -> ?rn3 A28 +rn7 ; R1.2 P3+1 P7+1 -> skip ; * -> A27 ; } end A27
    P3+1 -> A39  C2.6 -> A35  C2.5 -> A29  C8.6 -> A20  N8+7 -> A13  B3+5 -> A12  B7+5 -> A11
    * -> A10 }
  N2+3 -> at B1 {
    P7+1 -> at R2 { P7+1 -> A45  C8.5 -> A44  C8.6 -> A43  C2.1 -> A42  * -> A41 }
    * -> A40 }
  C2.4 -> at B1 {
    C2.5 -> scan R2-10 { N2+3 -> ?rn7 A53 +rn3 ; N8+7 -> ?rn3 A53 +rn7 ; R9.8 P3+1 P7+1 -> skip ; * -> A52 ; } end A52
    P7+1 -> A54  N8+7 -> A51
    * -> A50 }
  C2.5 -> at B1 { C8.5 -> @same  N8+7 -> @central  N2+3 -> @leftHorse  C2.5 -> D50  * -> B00 }
  C2.6 -> at B1 {
    C8.5 -> if R2=N2+3 R3=R1.2 then
              (if B2=N8+7 B3=R9+1 then A65 else if B2=R9+1 B3=N8+7 then A65 else A64)
            else A63
    R9+1 -> A62  N8+7 -> A61
    * -> A60 }
  P3+1 -> @pawn
  P1+1 -> A08  C2.7 -> A07  C2.3 -> A06  C2+4 -> A05  C2+2 -> A04  C2.1 -> A03  N2+1 -> A02  A4+5 -> A01
  * -> A00 }

rule pawn = at B1 {
  C8.7 -> at R2 {
    C8.5 -> at B2 {
      B3+5 -> if R3=N2+1 then (if B3=N8+9 then E16 else E15) else E14
      B7+5 -> at R3 {
        N8+7 -> at B3 {
          R1+1 -> if R4=R9.8 B4=R1.8 R5=N2+3 B5=N8+6 then
                    (if R6=C2.1 B6=N2+1 R7=N3+4 then at B7 { P1+1 -> E27  R8+6 -> E26  A6+5 -> E25  * -> E24 } else E24)
                  else E23
          P7+1 -> if R4=N2+1|R9.8 B4=P7+1 then
                    (if R5=N2+1|R9.8 then
                      at B5 { R1+1 -> at R6 { R1.2 -> E36  R8+4 -> E35  A4+5 -> E34  * -> E33 }  N8+6 -> E32  * -> E31 }
                    else E31)
                  else E30
          * -> E22 }
        C5+4 -> E38  N2+1 -> E37  A4+5 -> E21
        * -> E20 }
      C2.5 -> E17
      * -> E13 }
    B7+5 B3+5 -> E11  C2.5 -> E12
    * -> E10 }
  N2+3 -> at R2 {
    N2+3 -> if B2=P3+1 then @pawnHorses else E07
    P7+1 -> if B2=C8.7 then E09 else E08
    * -> E06 }
  P3+1 -> at R2 {
    N2+3 -> if B2=N2+3 then @pawnHorses else E41
    C8.7 -> at B2 { C8.5 -> E48  C2.5 -> E47  * -> E46 }
    * -> E40 }
  B7+5 B3+5 -> if R2=N2+3 then E02 else E01
  C8.6 C8.4 C2.6 C2.4 -> E04  C8.5 C2.5 -> E03  C2.7 -> E05
  * -> E00 }

rule pawnHorses = at R3 { B3+5 B7+5 -> E43  C2.1 -> E45  R1+1 -> E44  * -> E42 }

rule same = at R2 {
  N2+3 -> at B2 {
    N8+7 -> at R3 {
      R1.2 -> if B3=R9+1 then @sameStraight else @sameSlow
      R1+1 -> if B3=R9.8 then (if B4=R8+4 then D05 else D04) else D03
      * -> at B3 { R9.8 -> D02  R9+1 -> D01  * -> D00 } }
    R9+1 -> if R3=R1.2 B3=N8+7 then @sameStraight else D01
    * -> D00 }
  R1+1 -> if B2=R9.8 R3=N8+7 then (if B3=R8+4 then D05 else D04) else D03
  * -> D00 }

rule sameSlow = scan B3-10 {
  N2+3 P7+1 P3+1 -> skip ; C2.1 -> D15 ; C2+4 -> D14 ; R9.8 -> D13 ; R1+1 -> D12 ; R9+1 -> D11 ; * -> D10 ;
} end D10

rule sameStraight = scan R4-10 {
  A4+5 A6+5 -> D21 ; N8+9 -> D22 ; R2+4 -> D23 ; R2+6 -> D24 ; C8.6 -> D25 ;
  P3+1 -> ?rp7 @sameTwoPawns +rp3 ; P7+1 -> ?rp3 @sameTwoPawns +rp7 ;
  N8+7 -> skip ;
  * -> ?rp3 D26 ?rp7 D27 D20 ;
} end D20

rule sameTwoPawns = scan B4-10 { N2+3 R9.4 -> skip ; R1+1 -> D29 ; * -> D28 ; } end D28

rule central = scan B2-10 {
  R9.8 R8+5 P7+1 P3+1 -> skip ;
  N2+3 -> ?bc9 @leftCannon ?bc4 B07 @screen ;
  R9+1 -> ?bc9 @leftCannon ?bc4 B07 B06 ;
  C8+4 -> -bc9 +bc4 ;
  C8.9 -> -bc4 +bc9 ;
  C2.5 -> ?bc9 @crossCannon ?bc4 @crossBlocked @crossStraight ;
  * -> ?bc9 @leftCannon ?bc4 B07 B05 ;
} end B05

rule leftCannon = scan R2-10 {
  B7+9 -> if b-1=R8+5 then B21 else B20 ;
  P3+1 -> ?rp7 B25 +rp3 ; P7+1 -> ?rp3 B25 +rp7 ;
  N2+3 N8+7 -> skip ;
  C8+4 -> B24 ; C8+2 -> B23 ; R1+1 -> B22 ;
  * -> B20 ;
} end B20

rule crossBlocked = if R2=N2+3 B2=R9.8 R3=R1.2 B3=C8+4 R4=P3+1 B4=C2.5 then
    at R5 { P7+1 -> D36  C8+5 -> D35  N8+9 -> D34  N8+7 -> D33  N3+4 -> D32  * -> D31 }
  else D30

rule crossCannon = scan R2-10 {
  P5+1 -> if b-1=R8+5 b0=C2.5 then D41 else D40 ;
  P3+1 -> ?rp7 D43 +rp3 ; P7+1 -> ?rp3 D43 +rp7 ;
  N2+3 N8+7 -> skip ;
  R9.8 -> D42 ;
  * -> D40 ;
} end D40

rule crossStraight = scan R2-10 {
  R2+6 -> D53 ;
  N2+3 N8+7 P3+1 P7+1 -> skip ;
  R1.2 -> ?rr8 D55 +rr2 ; R9.8 -> ?rr2 D55 +rr8 ;
  * -> ?rr2 D52 ?rr8 D54 D51 ;
} end D50

rule leftHorse = at B2 {
  R9+1 -> if R2=N2+3 R3=R1.2 B3=R9.4 then at R4 { P7+1 -> B14  C8+2 -> B13  * -> B12 } else B10
  C8.6 -> at B3 { N8+9 R9+1 -> B11  * -> @sandwich }
  P3+1 P7+1 -> at B3 { A6+5 A4+5 -> B02  C8.6 -> @sandwich  N8+7 -> @screen  R9+2 -> B03  * -> B01 }
  N8+7 -> @screen  N8+9 -> B10  C2.1 -> B04
  * -> B01 }

rule sandwich = if R2=P7+1 B2=C8.6 R3=N8+7 then B32
  else scan B2-10 { N8+7 -> @sandwichRed ; B7+5 B3+5 C8.6 P7+1 P3+1 -> skip ; * -> B30 ; } end B30

rule sandwichRed = scan R2-10 {
  N8+9 -> +rn9 ; N8+7 -> +rn7 ; C8.6 -> +rc6 ;
  N2+3 R1.2 P3+1 P7+1 -> skip ;
  R1+1 -> !rc6 B34 ; R2+6 -> !rc6 B33 ;
  C8.7 -> @fiveSeven ; C8+4 -> B36 ; C8+2 -> B35 ;
  * -> !rc6 B31 @fiveSix ;
} end B30

rule fiveSix = if R2=N2+3 B2=C8.6 R3=R1.2 B3=N8+7 then
    (if ?rn7 then
      (if R4=C8.6 B4=R1.2 then (if B5=C2.1 then (if B6=P7+1 then B44 else B43) else B42) else B41)
    else if ?rn9 then B45 else B40)
  else B40

rule fiveSeven = if R2-5=N2+3|N8+9|R1.2|P3+1 B2-4=N8+7|C8.6|P3+1 then
    (if B5=B7+5 R6=C8.7 B6=R1.2 R7=R9.8 B7=C2+4 then (if R8=P7+1 B8=P3+1 R9=P3+1 then B56 else B55) else B54)
  else scan B2-10 { B7+5 B3+5 N8+7 C8.6 P7+1 P3+1 -> skip ; R1.2 -> B53 ; R9+1 -> B52 ; R9.8 -> B51 ; * -> B50 ; } end B50

rule screen =
  if set(C2.5 N8+7 N2+3 R9.8 R1.2 P7+1 R2+6 N2+3 N8+7 P3+1) then
    (if R6=R9+1 then
      (if B6=C2+1 R7=R2-2 B7=B3+5 then
        at R8 { P3+1 -> if R9=P7+1 then C25 else C23  P7+1 -> if R9=P7+1 then C25 else C24  * -> C22 }
      else C21)
    else C20)
  else if set(C2.5 N8+7 N2+3 R9.8 R1.2 P7+1 R2+6 N2+3 P7+1) then at B5 {
    N7+6 -> if R6=N8+7 then (if B6=B3+5 then at R7 { C8.9 -> C39  C8+1 -> C38  * -> C37 } else C36) else C35
    C8.9 -> if R6=R2.3 B6=C9-1 then at R7 {
              N8+7 -> if B7=A4+5 then at R8 {
                        C8.9 -> if B8=R1.2 then C46 else if B9=R1.2 then C46 else C45
                        N7+6 -> C44
                        * -> C43 }
                      else C42
              P5+1 -> C49  C8.6 -> C48  N8+9 -> C47
              * -> C41 }
            else C40
    B7+5 B3+5 -> C32  A6+5 A4+5 -> C31  C2+4 -> C34  R1+1 -> C33
    * -> C30 }
  else if set(C2.5 N8+7 N2+3 R9.8 R1.2 P7+1 N8+9 N2+3 C8.7) then at B5 {
    R1.2 -> if R6=R9.8 then at B6 { C2+4 -> C66  C2+2 -> C65  C8+4 -> C64  * -> C63 } else C62
    C2+2 -> C67
    * -> C61 }
  else if set(C2.5 N8+7 N2+3 R9.8 R1.2 N2+3 P3+1 P3+1 N8+9 P1+1 C8.7 N3+2) then
    (if R7=R9+1 then at B7 { B7+5 -> at R8 { R2+4 -> C76  N3+4 -> C75  * -> C74 }  P1+1 -> C78  B3+5 -> C77  * -> C73 }
    else C72)
  else scan R2-9 {
    R2+4 -> @riverRook ; R1+1 -> @rightRook ; C8.7 -> @fiveSevenScreen ;
    N2+3 R1.2 P3+1 P7+1 -> skip ;
    N8+9 -> +rn9 ; N8+7 -> +rn7 ; R2+6 -> +rr6 ;
    C8+4 -> @fiveEight ; C8+2 -> @fiveSevenRiver ; C8.6 -> @fiveSixScreen ; C8.9 -> C99 ;
    * -> ?rr6 @crossRiver ?rn7 @sevenHorse ?rn9 @edgeHorse C00 ;
  } end C00

rule riverRook = scan R2-10 { N2+3 R1.2 R2+4 P3+1 P7+1 -> skip ; N8+7 N8+9 -> C16 ; * -> C15 ; } end @rightRook

rule rightRook = scan R2-10 {
  N2+3 N8+7 R1+1 R1.4 R1.6 P3+1 P7+1 -> skip ; P5+1 -> C14 ; C8.9 -> C13 ; C8+2 -> C12 ; N7+6 -> C11 ; * -> C10 ;
} end C10

rule fiveSevenScreen = scan B2-10 {
  P7+1 -> @fiveSevenPawns ; P3+1 -> +bp3 ; N3+2 -> C71 ; N2+3 N8+7 R9.8 -> skip ; * -> ?bp3 C70 C60 ;
} end C00

rule fiveSevenPawns = scan R2-10 { N2+3 N8+9 R1.2 R2+6 C8.7 -> skip ; P7+1 -> C68 ; * -> C60 ; } end C60

rule crossRiver = scan R2-10 { N2+3 R1.2 R2+6 P3+1 P7+1 -> skip ; N8+9 -> C19 ; N8+7 -> C18 ; * -> C17 ; } end C17

rule sevenHorse = scan R2-10 { P5+1 -> @sevenHorsePawn ; N2+3 N8+7 R1.2 P3+1 P7+1 -> skip ; N7+6 -> C02 ; * -> C01 ; } end C01

rule sevenHorsePawn = scan B2-10 {
  N2+3 N8+7 R9.8 P7+1 P3+1 -> skip ; C8+4 -> ?bc2 C04 +bc8 ; C2+4 -> ?bc8 C04 +bc2 ; * -> C03 ;
} end C03

rule edgeHorse = scan R2-10 { N2+3 N8+9 R1.2 P3+1 P7+1 -> skip ; R9+1 -> C06 ; * -> C05 ; } end C05

rule fiveSixScreen =
  if R2-5=N2+3|R1.2|C8.6|N8+9 B2-4=N2+3|N8+7|R9.8|P7+1 then
    (if B5=R1.2 R6=R9.8 then (if B6=C2+4 then C53 else C52) else C51)
  else if R2-5=N2+3|R1.2|C8.6|R2+6 B2-4=N2+3|N8+7|R9.8|P7+1 then at B5 { P3+1 -> C56  R1.2 -> C55  * -> C54 }
  else scan R2-10 { N2+3 R1.2 C8.6 P3+1 P7+1 -> skip ; R2+6 -> C54 ; N8+9 -> C51 ; * -> C50 ; } end C50

rule fiveSevenRiver =
  if R2-5=N2+3|N8+7|C8+2|P7+1 B2-4=N8+7|N2+3|R9.8|P7+1 B5=N7+8 then (if R6=N7+6 R7=R1+1 then C86 else C85)
  else scan B2-10 {
    B7+5 -> +bb7 ; B3+5 -> C84 ; P7+1 P3+1 N8+7 N2+3 R9.8 -> skip ;
    C8+2 -> ?bb7 C83 C80 ; R1+1 -> ?bb7 C82 C80 ; * -> ?bb7 C81 C80 ;
  } end C80

rule fiveEight = scan R2-10 { P3+1 -> @fiveEightPawn ; N2+3 N8+7 N8+9 R1.2 R2+6 C8+4 -> skip ; * -> C90 ; } end C90

rule fiveEightPawn = scan B2-10 { P3+1 -> @fiveEightPawns ; N8+7 N2+3 R9.8 -> skip ; * -> C90 ; } end C90

rule fiveEightPawns = scan R2-10 {
  N8+9 -> at B5 {
            B7+5 B3+5 -> at B6 { P1+1 -> if R7=C8.7 then C97 else C96  A6+5 A4+5 -> C94  P7+1 -> C95  * -> C93 }
            P1+1 -> if R7=C8.7 then C97 else C96
            A6+5 A4+5 -> C94  P7+1 -> C95
            * -> C93 } ;
  N2+3 R1.2 C8+4 P3+1 -> skip ; C8.7 -> C98 ; N8+7 -> C92 ; * -> C91 ;
} end C91
`;
