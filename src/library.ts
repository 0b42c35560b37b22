// The library, platform-neutral: what a program that plays, analyses or
// referees xiangqi needs, and nothing mutable. Both entry points re-export it:
// src/index.ts (Node, the package's "exports") adds the version and the UCI
// text protocol; src/browser/index.ts (kirin.js: the exports' "browser" and
// "worker" conditions, and the page's web/dist/) adds what a page needs. Nothing here reaches a Node built-in except through the platform seam
// (docs/ARCHITECTURE.md), which the browser build replaces; test/architecture.test.ts
// checks that. Importing it has no side effects (the search thread starts with
// the first search, files are read when asked for).

// The engine: options, the game, searches on a search thread.
export { Engine, type SearchListener } from './engine/engine.js';
export type { OptionErrorCode, OptionInfo, OptionType, OptionValue, SetResult } from './engine/options.js';
export type { Bound, SearchInfo, SearchLimits, SearchResult, StaticEvaluation } from './search/types.js';

// The rules: positions, FEN, moves, game judgement.
export { Position } from './core/position.js';
export { START_FEN, parseFen, type FenErrorCode, type FenResult, type ParsedFen } from './core/fen.js';
export { hasLegalMove, legalMoves } from './core/movegen.js';
export { parseLegalMove, parseUciMove, playUciMoves, type MoveErrorCode } from './core/ucimove.js';
export {
  BLACK,
  MOVE_NONE,
  RED,
  makeMove,
  moveFrom,
  moveTo,
  moveToUci,
  parseSquare,
  squareName,
  type Color,
  type Move,
} from './core/types.js';
export { perft, perftDivide, type DivideEntry } from './core/perft.js';
export {
  DEFAULT_RULES,
  DRAW_RULES,
  REPETITION_RULES,
  formatJudgement,
  isBoardReason,
  judge,
  judgeMoves,
  reasonText,
  ruleConfigFrom,
  type DrawRule,
  type Judgement,
  type MoveKind,
  type ReasonCode,
  type RepetitionRule,
  type RuleConfig,
} from './core/rules.js';

// The referee: a game's repetition cycles judged move by move, in words and as
// message keys a page translates (ChineseRule by the rule book's 捉 and 杀).
export {
  REFEREE_MATE_THREAT_DEPTH,
  judgeGame,
  type CycleVerdict,
  type GameEnd,
  type GameVerdict,
  type JudgedMove,
  type JudgeOptions,
  type Message,
  type PieceName,
  type PlacedPiece,
  type SideAccount,
  type SideName,
  type VerdictCode,
} from './referee/judge.js';

// Openings: opening books (probing; the engine plays from one with OwnBook), the ECCO name of a game's opening.
export { OpeningBook, type BookMove } from './book/book.js';
export type { BookDescription, BookLoadCode } from './book/format.js';
export { classifyOpening, eccoName, type ClassifyErrorCode, type OpeningName } from './opening/ecco.js';

// The opening explorer: each position's moves in a collection of games with their results and notable games
// (docs/EXPLORER.md); built from games anywhere, read from bytes or fetched.
export {
  Explorer,
  fetchExplorer,
  notableGameRecord,
  type ExplorerCounts,
  type ExplorerMove,
  type ExplorerPosition,
  type NotableGame,
} from './explorer/explorer.js';
export type { ExplorerLoadCode } from './explorer/format.js';
export {
  DEFAULT_EXPLORER_OPTIONS,
  buildExplorer,
  explorerGame,
  type ExplorerBuild,
  type ExplorerGame,
  type ExplorerOptions,
} from './explorer/build.js';

// Puzzles: a set read and checked, a player's moves judged, the next puzzle fitted to a rating (docs/PUZZLES.md).
export {
  PUZZLE_THEMES,
  choosePuzzle,
  puzzleMove,
  ratingAfter,
  readPuzzles,
  writePuzzles,
  type Puzzle,
  type PuzzleSet,
  type PuzzleTheme,
  type PuzzleVerdict,
} from './puzzles/puzzle.js';

// Moves in the players' notations (Chinese 炮二平五, WXF C2=5, ICCS H2-E2, UCI
// h2e2), both ways, and game files: PGN (read in any notation and encoding,
// written in a chosen notation) and XQF (read). docs/NOTATION.md.
export {
  NOTATIONS,
  detectNotation,
  formatLine,
  formatMove,
  parseMove,
  type FormatErrorCode,
  type MoveReading,
  type MoveStyle,
  type Notation,
  type NotationErrorCode,
} from './notation/move.js';
export {
  addMove,
  mainLine,
  newGame,
  readResult,
  type Game,
  type GameErrorCode,
  type GameResult,
  type MoveNode,
  type MoveTree,
} from './notation/game.js';
export { parseGames, readPgn, writePgn, type GamesRead, type PgnStyle, type ReadOptions } from './notation/pgn.js';
export { isXqf, parseXqf, type XqfOptions } from './notation/xqf.js';
export { readGameFile, readGames, type GameFile } from './notation/files.js';
export {
  TEXT_ENCODINGS,
  decodeText,
  textCandidates,
  textEncoding,
  type DecodedText,
  type TextEncoding,
} from './notation/text.js';

// Evaluation and the score model.
export { evaluate, traceClassical } from './eval/evaluate.js';
export {
  CLASSICAL_WIN_RATE,
  PIKAFISH_WIN_RATE,
  formatScore,
  materialCount,
  toCp,
  wdl,
  winRateParams,
  type ScoreType,
  type WinRateModel,
} from './eval/score.js';

// The network (NNUE): load a Pikafish network (a file on Node, bytes anywhere) and evaluate with it.
export { NnueNetwork, NnueEvaluator, type NetworkHandle } from './eval/nnue/network.js';
export { prepareNetworkDecoder, type NnueLoadCode } from './eval/nnue/loader.js';

// Game review: every move scored, classified and summed up as accuracy, and its chart (docs/REVIEW.md).
export {
  DEFAULT_THRESHOLDS,
  classifyDrop,
  reviewGame,
  winChance,
  type Classification,
  type Review,
  type ReviewErrorCode,
  type ReviewGame,
  type ReviewLimits,
  type ReviewLine,
  type ReviewOptions,
  type ReviewPly,
  type ReviewPosition,
  type ReviewProgress,
  type ReviewScore,
  type Side,
  type SideSummary,
  type Terminal,
  type Thresholds,
} from './review/review.js';
export { reviewChartSvg, type ChartOptions } from './review/chart.js';
export { formatReviewScore, reviewMoveTexts } from './review/text.js';
export { annotateGame, reviewSummary, type AnnotateOptions } from './review/annotate.js';

// The one way to fail.
export { err, ok, type KirinError, type Result } from './core/result.js';
