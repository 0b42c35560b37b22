// The games a book is built from, read from PGN files.
//
// TEMPORARY ADAPTER, to be replaced by the notation module's PGN reader
// (src/notation, parseGames) when it lands: this minimal reader takes only
// PGN whose moves are in ICCS/UCI coordinates (h2e2 or H2-E2), the main line
// (comments and variations are skipped), and the FEN and Result tags.

import type { BookGame } from './build.js';

const MOVE_RE = /^([a-i])([0-9])-?([a-i])([0-9])$/i;
const RESULT_RE = /^(1-0|0-1|1\/2-1\/2|\*)$/;

/** The games of a PGN text (`name` for messages); a game whose movetext has a word that is not a move is refused. */
export function readPgnGames(text: string, name: string): { games: BookGame[]; problems: string[] } {
  const games: BookGame[] = [];
  const problems: string[] = [];
  let tags: Record<string, string> = {};
  let body = '';
  let n = 0;
  const flush = () => {
    if (Object.keys(tags).length === 0 && body.trim() === '') return;
    n++;
    const source = `${name} game ${n}`;
    const words = body
      .replace(/\{[^}]*\}/g, ' ')
      .replace(/;[^\n]*/g, ' ')
      .replace(/\$\d+/g, ' ');
    // Variations (nested parentheses) are left out.
    let main = '';
    let depth = 0;
    for (const ch of words) {
      if (ch === '(') depth++;
      else if (ch === ')') depth = Math.max(0, depth - 1);
      else if (depth === 0) main += ch;
    }
    const moves: string[] = [];
    let result = tags.Result ?? '*';
    for (const w of main.split(/\s+/)) {
      if (w === '' || /^\d+\.+$/.test(w)) continue;
      const t = w.replace(/^\d+\.+/, '');
      if (RESULT_RE.test(t)) {
        result = t;
        continue;
      }
      const m = MOVE_RE.exec(t);
      if (!m) {
        problems.push(`${source}: '${w}' is not a move in ICCS/UCI coordinates (this reader takes no other notation)`);
        return;
      }
      moves.push(`${m[1]}${m[2]}${m[3]}${m[4]}`.toLowerCase());
    }
    games.push({ fen: tags.FEN ?? null, moves, result: RESULT_RE.test(result) ? result : '*', source });
  };
  // A game is its tag section and the movetext up to the next tag section.
  for (const line of text.replace(/^\ufeff/, '').split(/\r?\n/)) {
    const t = /^\s*\[(\w+)\s+"(.*)"\]\s*$/.exec(line);
    if (!t) {
      body += '\n' + line;
      continue;
    }
    if (body.trim() !== '') {
      flush();
      tags = {};
      body = '';
    }
    tags[t[1]] = t[2];
  }
  flush();
  return { games, problems };
}
