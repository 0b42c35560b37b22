#!/usr/bin/env bash
# Plays one game of xiangqi in XBoard, headless under Xvfb: Kirin against Kirin
# (or another engine), Kirin spoken to over UCI (uci2wb) or UCCI (uci2wb -x).
# Saves the game, checks from the saved PGN with Kirin's rules that every move
# was legal and the end is right (lab/gui/check-pgn.ts), and saves a
# screenshot of the final board. Run by hand (not part of npm test):
#
#   lab/gui/xboard-game.sh [--protocol uci|ucci] [--opponent kirin|kirin-ucci|fairy-stockfish|'<xboard engine command>']
#                            [--tc 0:20] [--inc 0.2] [--out DIR] [--timeout 600]
#
# Needs (Debian): xboard uci2wb xvfb imagemagick (and fairy-stockfish for that opponent),
# and a built tree (npm run build). Output in DIR (default /tmp/kirin-xboard-<protocol>):
# game.pgn, final.png, xboard.debug (XBoard's log of both engines' lines), check.txt.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PROTOCOL=uci
OPPONENT=kirin
TC=0:20
INC=0.2
OUT=""
TIMEOUT=600
while [ $# -gt 0 ]; do
  case "$1" in
    --protocol) PROTOCOL="$2"; shift 2 ;;
    --opponent) OPPONENT="$2"; shift 2 ;;
    --tc) TC="$2"; shift 2 ;;
    --inc) INC="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    --timeout) TIMEOUT="$2"; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "xboard-game: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done
OUT="${OUT:-/tmp/kirin-xboard-$PROTOCOL}"

export PATH="$PATH:/usr/games"
for tool in xboard uci2wb Xvfb import; do
  command -v "$tool" >/dev/null || { echo "xboard-game: '$tool' not found (apt-get install xboard uci2wb xvfb imagemagick)" >&2; exit 2; }
done
[ -f "$ROOT/dist/lab/gui/check-pgn.js" ] || { echo "xboard-game: build first (npm run build)" >&2; exit 2; }

UCI2WB="$(command -v uci2wb)"
# uci2wb needs ONE executable path: bin/kirin.js has a node shebang.
kirin_cmd() {
  case "$1" in
    uci) echo "$UCI2WB -var xiangqi $ROOT/bin/kirin.js" ;;
    ucci) echo "$UCI2WB -x $ROOT/bin/kirin.js" ;;
    *) echo "xboard-game: --protocol must be uci or ucci" >&2; exit 2 ;;
  esac
}
FIRST="$(kirin_cmd "$PROTOCOL")"
case "$OPPONENT" in
  kirin) SECOND="$FIRST" ;;
  kirin-uci) SECOND="$(kirin_cmd uci)" ;;
  kirin-ucci) SECOND="$(kirin_cmd ucci)" ;;
  # Fairy-Stockfish speaks XBoard's protocol itself (its UCI numbers xiangqi ranks 1-10, uci2wb 0-9).
  fairy-stockfish) SECOND="$(command -v fairy-stockfish)" ;;
  *) SECOND="$OPPONENT" ;;
esac

mkdir -p "$OUT"
rm -f "$OUT/game.pgn" "$OUT/final.png" "$OUT/xboard.debug" "$OUT/check.txt"

# A free display number.
DISP=99
while [ -e "/tmp/.X$DISP-lock" ] || [ -e "/tmp/.X11-unix/X$DISP" ]; do DISP=$((DISP + 1)); done
Xvfb ":$DISP" -screen 0 1024x768x24 -nolisten tcp >"$OUT/xvfb.log" 2>&1 &
XVFB=$!
XBOARD=""
cleanup() {
  [ -n "$XBOARD" ] && kill "$XBOARD" 2>/dev/null || true
  kill "$XVFB" 2>/dev/null || true
}
trap cleanup EXIT
sleep 1

echo "xboard-game: $FIRST (red) vs $SECOND (black), tc $TC + $INC s, display :$DISP"
# TwoMachines: the engines play each other and XBoard stays open at the end,
# so the final board can be photographed. The game is saved when it ends.
DISPLAY=":$DISP" xboard -variant xiangqi \
  -fcp "$FIRST" -fd "$ROOT" -scp "$SECOND" -sd "$ROOT" \
  -initialMode TwoMachines -tc "$TC" -inc "$INC" \
  -saveGameFile "$OUT/game.pgn" -popupExitMessage false -popupMoveErrors false \
  -debug -nameOfDebugFile "$OUT/xboard.debug" -size medium \
  >"$OUT/xboard.log" 2>&1 &
XBOARD=$!

start=$(date +%s)
while ! grep -qE '^\{?.*\}? *(1-0|0-1|1/2-1/2)$|\[Result "(1-0|0-1|1/2-1/2)"\]' "$OUT/game.pgn" 2>/dev/null; do
  if ! kill -0 "$XBOARD" 2>/dev/null; then echo "xboard-game: xboard ended before the game did (see $OUT/xboard.log)" >&2; break; fi
  if [ $(($(date +%s) - start)) -gt "$TIMEOUT" ]; then echo "xboard-game: no result after $TIMEOUT s" >&2; break; fi
  sleep 2
done
sleep 2
DISPLAY=":$DISP" import -window root "$OUT/final.png" || echo "xboard-game: screenshot failed" >&2
kill "$XBOARD" 2>/dev/null || true
wait "$XBOARD" 2>/dev/null || true
XBOARD=""

echo "xboard-game: game in $(( $(date +%s) - start )) s; $OUT/game.pgn, screenshot $OUT/final.png"
set +e
node "$ROOT/dist/lab/gui/check-pgn.js" "$OUT/game.pgn" | tee "$OUT/check.txt"
rc=${PIPESTATUS[0]}
exit "$rc"
