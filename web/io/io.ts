// The game in and out (under the board): a game file (PGN, XQF) or a pasted
// game opened, a file with several games offering them in a list; the game
// exported as PGN (headers, variations, comments; after a review the
// annotated game) in the notation shown; the position's FEN shown and a FEN
// set; and the address, which holds the game (link.ts) and is kept up to date.

import { downloadPgn } from './download.js';
import {
  START_FEN,
  addMove,
  annotateGame,
  judge,
  newGame,
  parseGames,
  parseLegalMove,
  readGameFile,
  writePgn,
  Position,
  moveToUci,
  type Game,
  type GameErrorCode,
  type MoveTree,
  type Result,
  type TextEncoding,
} from '../../src/browser/index.js';
import { $ } from '../dom.js';
import { mainLineNodes, positionAfter } from '../game/tree.js';
import { errorText } from '../game/words.js';
import type { PageContext } from '../page.js';
import type { ReviewState } from '../review/state.js';
import { readLink, writeLink } from './link.js';

/** The date as PGN writes it (YYYY.MM.DD). */
function pgnDate(d: Date): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}.${two(d.getMonth() + 1)}.${two(d.getDate())}`;
}

export interface IoDeps {
  /** The games read from a file or a text (the library keeps them). */
  imported(games: readonly Game[]): void;
}

export interface IoRoom {
  /** Opens the game the address names; false when it names none or a bad one (said on the page). */
  openLink(): boolean;
}

export function mountIo(ctx: PageContext, review: ReviewState, deps: IoDeps): IoRoom {
  const t = ctx.t;
  /** The games read from a file or a text: the good ones offered, the bad ones' errors said. */
  let imported: Game[] = [];

  /** Opens a game on the board, at its start, for analysis (Kirin searches it). */
  const openGame = (g: Game): void => {
    if (ctx.mode !== 'analysis') ctx.setMode('analysis');
    if (!ctx.analysing) ctx.setAnalysing(true);
    ctx.setGame(g);
  };

  /** The encodings offered for a file (the select's values; 'auto': the one whose games read best). */
  const ENCODINGS: Readonly<Record<string, TextEncoding>> = {
    'utf-8': 'utf-8',
    gb18030: 'gb18030',
    big5: 'big5',
    'utf-16le': 'utf-16le',
    'utf-16be': 'utf-16be',
  };
  const ENCODING_NAMES: Readonly<Record<TextEncoding, string>> = {
    'utf-8': 'UTF-8',
    gb18030: 'GBK',
    big5: 'Big5',
    'utf-16le': 'UTF-16LE',
    'utf-16be': 'UTF-16BE',
  };

  /** What the reader says about the games read: the encoding of a file, the variations it left out. */
  const showNote = (good: readonly Game[], source: string, encoding: TextEncoding | null): void => {
    const note = $('import-note');
    note.replaceChildren();
    const say = (text: string): void => {
      const line = document.createElement('span');
      line.textContent = text;
      note.append(line);
    };
    if (encoding !== null) say(t('io.encoding-read', { source, encoding: ENCODING_NAMES[encoding] }));
    const dropped = good.flatMap((g) => g.warnings ?? []);
    if (dropped.length > 0) {
      say(t('io.dropped', { n: dropped.length }));
      // The reader's own words name the game, the variation and the move.
      for (const w of dropped.slice(0, 5)) say(w);
      if (dropped.length > 5) say('...');
    }
  };

  const showImport = (
    results: Result<Game, GameErrorCode>[],
    source: string,
    encoding: TextEncoding | null = null,
  ): void => {
    const good = results.flatMap((r) => (r.ok ? [r.value] : []));
    showNote(good, source, encoding);
    const bad = results.flatMap((r) => (r.ok ? [] : [errorText(t, r.error)]));
    const errors =
      bad.length === 0
        ? ''
        : t('io.unreadable', { source, bad: bad.length, total: results.length }) +
          bad.slice(0, 3).join('; ') +
          (bad.length > 3 ? '; ...' : '');
    $('import-error').textContent = results.length === 0 ? t('io.no-game', { source }) : errors;
    const pick = $<HTMLSelectElement>('import-games');
    pick.replaceChildren();
    imported = good;
    good.forEach((g, i) => {
      const h = g.headers;
      const who = h.Red || h.Black ? `${h.Red ?? '?'} – ${h.Black ?? '?'}` : t('io.game-n', { n: i + 1 });
      pick.add(new Option(`${i + 1}. ${[who, h.Event, h.Date].filter((x) => x).join(', ')}`, String(i)));
    });
    pick.hidden = good.length < 2;
    if (good.length > 0) deps.imported(good);
    if (good.length > 0) openGame(good[0]);
  };

  const importText = (): void => {
    const text = $<HTMLTextAreaElement>('pgn').value;
    if (text.trim() === '') {
      $('import-error').textContent = t('io.paste-first');
      return;
    }
    showImport(parseGames(text), t('io.the-text'));
  };

  const importFile = (file: File): void => {
    file.arrayBuffer().then(
      (b) => {
        const chosen = ENCODINGS[$<HTMLSelectElement>('import-encoding').value];
        const read = readGameFile(new Uint8Array(b), file.name, chosen ? { encoding: chosen } : {});
        showImport(read.games, file.name, read.kind === 'pgn' ? read.encoding : null);
      },
      (e: Error) => ($('import-error').textContent = `${file.name}: ${e.message}`),
    );
  };

  /** The game as PGN in the player's notation (UCI is written as ICCS), into the text box and as a download. */
  const exportPgn = (): void => {
    const game = ctx.game;
    const g: Game = { ...game, headers: { ...game.headers } };
    if (Object.keys(g.headers).length === 0) {
      g.headers.Event = t('io.event');
      g.headers.Date = pgnDate(new Date());
    }
    const main = mainLineNodes(game);
    if (g.result === '*') {
      const j = judge(positionAfter(game.fen, main), ctx.engine.ruleConfig());
      if (j.result !== 'none') g.result = j.result === 'red' ? '1-0' : j.result === 'black' ? '0-1' : '1/2-1/2';
    }
    // A reviewed game goes out with the review: scores, marks, the best lines.
    const done = review.done;
    const reviewedMain =
      done !== null && done.reviewed.length === main.length && done.reviewed.every((n, i) => n === main[i]);
    const annotated =
      reviewedMain && done ? annotateGame(g, done.result, { ...ctx.moveStyle(), annotator: 'Kirin' }) : null;
    const r = writePgn(annotated?.ok ? annotated.value : g, ctx.moveStyle());
    if (!r.ok) {
      $('import-error').textContent = t('io.export-failed', { detail: errorText(t, r.error) });
      return;
    }
    $<HTMLTextAreaElement>('pgn').value = r.value;
    $('import-error').textContent = '';
    downloadPgn(document, 'kirin-game.pgn', r.value);
  };

  const openLink = (): boolean => {
    const link = readLink(location.hash);
    if (!link) return false;
    const fen = link.fen ?? START_FEN;
    const start = Position.fromFen(fen);
    if (!start.ok) {
      $('fen-error').textContent = t('io.link-fen', { detail: errorText(t, start.error) });
      return false;
    }
    const g = newGame(fen);
    const p = start.value;
    p.reserve(link.moves.length + 1);
    let tree: MoveTree = g;
    for (let i = 0; i < link.moves.length; i++) {
      const m = parseLegalMove(p, link.moves[i]);
      if (!m.ok) {
        $('fen-error').textContent = t('io.link-move', { n: i + 1, detail: errorText(t, m.error) });
        break;
      }
      tree = addMove(tree, m.value);
      p.doMove(m.value);
    }
    ctx.setFlipped(link.flipped);
    ctx.setMode('analysis');
    if (!ctx.analysing) ctx.setAnalysing(true);
    ctx.setGame(g, link.ply ?? link.moves.length);
    return true;
  };

  /** The address holds the game: the start FEN, the line shown and the move shown. */
  const updateLink = (): void => {
    const hash = writeLink({
      fen: ctx.game.fen === START_FEN ? null : ctx.game.fen,
      moves: ctx.currentLine().map((n) => moveToUci(n.move)),
      ply: ctx.path.length,
      flipped: ctx.flipped,
    });
    if (location.hash !== hash) history.replaceState(null, '', `${location.pathname}${location.search}${hash}`);
    $<HTMLInputElement>('share-url').value = location.href;
  };

  ctx.onChange(() => {
    $('fen').textContent = ctx.pos.fen();
    updateLink();
  });

  $('fen-set').addEventListener('click', () => {
    const fen = $<HTMLInputElement>('fen-input').value.trim();
    const r = fen === '' ? null : Position.fromFen(fen);
    const error = r === null ? t('io.enter-fen') : r.ok ? '' : errorText(t, r.error);
    $('fen-error').textContent = error;
    if (error) return;
    ctx.setMode('analysis');
    ctx.setGame(newGame(fen));
  });
  $('new-board').addEventListener('click', () => {
    // A new board from the start position: the analysis board's (a game against Kirin is abandoned).
    ctx.setMode('analysis');
    ctx.setGame(newGame());
  });
  $('import-text').addEventListener('click', importText);
  $<HTMLInputElement>('import-file').addEventListener('change', (ev) => {
    const input = ev.target as HTMLInputElement;
    const file = input.files?.[0];
    if (file) importFile(file);
    // The same file may be chosen again (in another encoding).
    input.value = '';
  });
  $<HTMLSelectElement>('import-games').addEventListener('change', (ev) => {
    const g = imported[Number((ev.target as HTMLSelectElement).value)];
    if (g) openGame(g);
  });
  $('export-pgn').addEventListener('click', exportPgn);
  $('share-copy').addEventListener('click', () => {
    const url = $<HTMLInputElement>('share-url');
    url.select();
    navigator.clipboard?.writeText(url.value).then(
      () => ($('share-note').textContent = t('io.copied')),
      () => ($('share-note').textContent = t('io.copy-yourself')),
    );
  });
  // The page writes its address with replaceState (no hashchange): this is a player's own edit.
  window.addEventListener('hashchange', () => openLink());
  $('fen').textContent = ctx.pos.fen();
  return { openLink };
}
