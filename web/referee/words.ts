// judgeGame's verdict (the library's referee, docs/LIBRARY.md "The referee")
// in the player's words: each of its sentences is a message key with
// parameters, said here with the referee's catalog (messages.ts), the sides and
// results of the game room's, and the moves in the player's notation. Plain
// functions (no DOM), so that Node tests them in all three languages.

import { formatMove, type Game, type GameVerdict, type Message, type MoveStyle } from '../../src/browser/index.js';
import { mainLineNodes, positionAfter } from '../game/tree.js';
import { sideName } from '../game/words.js';
import type { Params, Translate } from '../i18n/i18n.js';

/** The move of ply `ply` (UCI `uci`) in the player's notation. */
export type MoveWords = (ply: number, uci: string) => string;

/** The moves of a game's main line in `style` (炮二平五, 馬8進7 in Traditional), by ply. */
export function gameMoveWords(game: Game, style: MoveStyle): MoveWords {
  const line = mainLineNodes(game);
  return (ply, uci) => {
    const node = line[ply - 1];
    if (node === undefined) return uci;
    const text = formatMove(positionAfter(game.fen, line.slice(0, ply - 1)), node.move, style);
    return text.ok ? text.value : uci;
  };
}

const split = (s: string | number | undefined): string[] => (s === undefined || s === '' ? [] : String(s).split(','));

/** A list in the language's way: 车、马和炮 / the rook, the knight and the cannon. */
function list(t: Translate, items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  let out = items[0];
  for (let i = 1; i < items.length; i++)
    out =
      i === items.length - 1
        ? t('referee.list-last', { first: out, last: items[i] })
        : t('referee.list', { first: out, next: items[i] });
  return out;
}

/** A piece where it stands: 黑马（g7） / the black knight on g7. */
function piece(t: Translate, side: string, name: string, square: string): string {
  return t('referee.piece', { piece: t(`referee.piece.${side}.${name}`), square });
}

const other = (side: string): string => (side === 'red' ? 'black' : 'red');

/** One of the verdict's sentences in the player's words. */
function messageText(t: Translate, m: Message, moveWords: MoveWords): string {
  const p = m.params;
  const side = String(p.side ?? '');
  const mover = (): Params => ({ side: sideName(t, side as 'red'), move: moveWords(Number(p.ply), String(p.move)) });
  switch (m.key) {
    case 'cycle': {
      const from = Number(p.from);
      const params = { first: from + 1, to: p.to, from, length: p.length };
      return t(from === 0 ? 'referee.cycle-start' : 'referee.cycle', params);
    }
    case 'move.check': {
      const squares = split(p.bySquares);
      const by = split(p.by).map((name, i) => piece(t, side, name, squares[i] ?? ''));
      return t('referee.move.check', { ...mover(), by: list(t, by) });
    }
    case 'move.mate-threat':
    case 'move.idle':
    case 'move.answer-check':
      return t(`referee.${m.key}`, mover());
    case 'move.chase': {
      const targetSquares = split(p.targetSquares);
      const by = split(p.by);
      const bySquares = split(p.bySquares);
      const byCheck = split(p.byCheck);
      const targets = split(p.targets).map((name, i) => {
        const target = piece(t, other(side), name, targetSquares[i] ?? '');
        if (by[i] === undefined) return target;
        const attacker = piece(t, side, by[i], bySquares[i] ?? '');
        return t(byCheck[i] === '1' ? 'referee.target.by-check' : 'referee.target.by', { target, by: attacker });
      });
      return t('referee.move.chase', { ...mover(), targets: list(t, targets) });
    }
    case 'move.chase-by-check':
      return t('referee.move.chase-by-check', {
        ...mover(),
        checker: piece(t, side, String(p.checker), String(p.checkerSquare)),
      });
    case 'side.summary': {
      const n = (k: string): number => Number(p[k] ?? 0);
      const who = sideName(t, side as 'red');
      const moves = n('moves');
      for (const [k, key] of [
        ['checks', 'checks-every'],
        ['chases', 'chases-every'],
        ['mateThreats', 'mate-threats-every'],
        ['idle', 'idle-every'],
      ] as const)
        if (n(k) === moves) return t(`referee.summary.${key}`, { side: who });
      const parts = (
        [
          ['checks', 'checks'],
          ['mateThreats', 'mate-threats'],
          ['chases', 'chases'],
          ['idle', 'idle'],
        ] as const
      ).flatMap(([k, key]) => (n(k) > 0 ? [t(`referee.count.${key}`, { n: n(k) })] : []));
      return t('referee.summary.mixed', { side: who, parts: list(t, parts) });
    }
    case 'verdict.must-change':
      return t('referee.verdict.must-change', {
        side: sideName(t, side as 'red'),
        winner: sideName(t, String(p.winner) as 'red'),
        offence: t(`referee.offence.${String(p.offence)}`),
      });
    case 'verdict.both-attack':
    case 'verdict.allowed':
    case 'verdict.not-judged':
      return t(`referee.${m.key}`);
    case 'verdict.single-against-joint':
      return t('referee.verdict.single-against-joint', {
        side: sideName(t, side as 'red'),
        other: sideName(t, String(p.other) as 'red'),
      });
    case 'end':
      return t('referee.end', {
        ply: p.ply,
        result: t(`game.result.${String(p.result)}`),
        reason: t(`game.reason.${String(p.reason)}`),
      });
    default:
      // A sentence a newer library says that this page has no words for.
      return '';
  }
}

/** The verdict as paragraphs: each cycle's sentences, then where the rules end the game. */
export function verdictText(t: Translate, v: GameVerdict, moveWords: MoveWords): string[][] {
  const said = (ms: readonly Message[]): string[] =>
    ms.map((m) => messageText(t, m, moveWords)).filter((s) => s !== '');
  const out = v.cycles.map((c) => said(c.messages));
  if (v.end) out.push(said(v.end.messages));
  return out;
}
