// The referee on the page (judgeGame, docs/LIBRARY.md "The referee"): when the
// position shown ends a game by a repetition ruling (in analysis, or a game
// against Kirin over), and when the player asks *谁应变着？* (in 着法, shown when
// the line on the board repeats a position), the box under the status line
// (#referee) gives the ruling in the player's words: which side checks, chases
// what with what, or idles, who must change, and the result, under the
// Repetition Rule chosen (and the engine's Mate Threat Depth, which the page sets
// to the referee's, web/app.ts). A ruling shown is drawn again when the rules
// change in the settings.

import {
  addMove,
  judgeGame,
  moveToUci,
  newGame,
  type Game,
  type GameVerdict,
  type MoveNode,
  type MoveTree,
} from '../../src/browser/index.js';
import type { PageContext } from '../page.js';
import { gameMoveWords, verdictText } from './words.js';

/** The rulings that end a game by a repetition (the referee has something to say about them). */
const REPETITION_ENDS = new Set([
  'perpetual-check',
  'perpetual-chase',
  'perpetual-mate-threat',
  'forbidden-cycle',
  'repetition',
]);

export interface RefereeElements {
  /** The box for the ruling (under the status line). */
  box: HTMLElement;
  /** The 谁应变着？ button (in 着法). */
  ask: HTMLButtonElement;
}

/** A game of the moves `nodes` from `fen` (its main line). */
function lineGame(fen: string, nodes: readonly MoveNode[]): Game {
  const g = newGame(fen);
  let tree: MoveTree = g;
  for (const n of nodes) tree = addMove(tree, n.move);
  return g;
}

export function mountReferee(ctx: PageContext, el: RefereeElements): void {
  /** The last judgement made: its line (start FEN, UCI moves), its rules and verdict, reused while both stay. */
  let judged: { line: string; rules: string; game: Game; verdict: GameVerdict | null } | null = null;
  /** The line the player asked about, shown until the line changes (under the rules of the moment). */
  let asked: string | null = null;

  const judgeLine = (nodes: readonly MoveNode[]): { line: string; game: Game; verdict: GameVerdict | null } => {
    const cfg = ctx.engine.ruleConfig();
    const line = [ctx.game.fen, ...nodes.map((n) => moveToUci(n.move))].join(' ');
    const rules = [cfg.repetitionRule, cfg.mateThreatDepth, cfg.drawRule, cfg.rule60MaxPly].join(' ');
    if (judged?.line === line && judged.rules === rules) return judged;
    const game = lineGame(ctx.game.fen, nodes);
    const v = judgeGame(game, {
      rule: cfg.repetitionRule,
      mateThreatDepth: cfg.mateThreatDepth,
      drawRule: cfg.drawRule,
      rule60MaxPly: cfg.rule60MaxPly,
      notation: 'uci',
    });
    judged = { line, rules, game, verdict: v.ok ? v.value : null };
    return judged;
  };

  const show = (j: { game: Game; verdict: GameVerdict | null } | null): void => {
    el.box.replaceChildren();
    el.box.hidden = j === null;
    if (j === null) return;
    const title = document.createElement('h4');
    title.textContent = ctx.t('referee.title', {
      rule: ctx.t(`settings.rule.${ctx.engine.ruleConfig().repetitionRule}`),
    });
    el.box.append(title);
    const paragraphs = j.verdict ? verdictText(ctx.t, j.verdict, gameMoveWords(j.game, ctx.moveStyle())) : [];
    if (paragraphs.length === 0) paragraphs.push([ctx.t('referee.none')]);
    for (const lines of paragraphs) {
      const p = document.createElement('p');
      lines.forEach((line, i) => {
        const span = document.createElement('span');
        span.className = i === 0 ? 'referee-head' : 'referee-line';
        span.textContent = line;
        p.append(span);
      });
      el.box.append(p);
    }
  };

  const update = (): void => {
    // A game ended here by a repetition ruling: the ruling, unasked.
    const j = ctx.judgement();
    if (j.result !== 'none' && REPETITION_ENDS.has(j.code)) {
      el.ask.hidden = true;
      return show(judgeLine(ctx.path));
    }
    // The line on the board repeats a position: the player may ask.
    const line = ctx.mode === 'practice' ? null : judgeLine(ctx.currentLine());
    el.ask.hidden = !(line?.verdict && line.verdict.cycles.length > 0);
    show(line !== null && asked === line.line ? line : null);
  };

  el.ask.addEventListener('click', () => {
    asked = judgeLine(ctx.currentLine()).line;
    update();
  });
  ctx.onChange(update);
  update();
}
