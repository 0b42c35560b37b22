// Converts moves in Chinese notation (车八进五, 炮１进５, 前炮平６ ...) to UCI, and
// turns tiantian.txt into corpus entries:
//   node test/rules/chinese-notation.mjs test/rules/tiantian.txt
// (needs the compiled dist/). Red files are 一..九 counted from Red's right
// (一 = file i), Black files １..９ counted from Black's right (１ = file a).
import { readFileSync } from 'node:fs';
import { Position } from '../../dist/core/position.js';
import { legalMoves } from '../../dist/core/movegen.js';
import { FILE_OF, RANK_OF, moveToUci } from '../../dist/core/types.js';

const TYPES = { 车: 1, 車: 1, 仕: 2, 士: 2, 炮: 3, 砲: 3, 兵: 4, 卒: 4, 马: 5, 馬: 5, 相: 6, 象: 6, 帅: 7, 将: 7, 帥: 7, 將: 7 };
const RED_NUM = '一二三四五六七八九';
function num(ch) {
  const r = RED_NUM.indexOf(ch);
  if (r >= 0) return r + 1;
  const code = ch.charCodeAt(0);
  if (code >= 0xff11 && code <= 0xff19) return code - 0xff10;
  if (code >= 0x31 && code <= 0x39) return code - 0x30;
  throw new Error(`not a number: ${ch}`);
}

export function chineseToMove(pos, text) {
  const side = pos.side;
  const fileIdx = (n) => (side === 0 ? 9 - n : n - 1);
  const dir = side === 0 ? 1 : -1;
  const t = [...text.trim()];
  let type, origin, which = null;
  if ('前后中'.includes(t[0])) {
    which = t[0];
    type = TYPES[t[1]];
  } else {
    type = TYPES[t[0]];
    origin = fileIdx(num(t[1]));
  }
  const action = t[2], n = num(t[3]);
  const candidates = [];
  for (const m of legalMoves(pos)) {
    const from = m >> 7, to = m & 127;
    const pc = pos.board[from];
    if ((pc & 7) !== type) continue;
    if (which === null) {
      if (FILE_OF[from] !== origin) continue;
    } else {
      const same = [];
      for (let s = 0; s < 90; s++) if (pos.board[s] === pc && FILE_OF[s] === FILE_OF[from]) same.push(s);
      if (same.length < 2) continue;
      same.sort((a, b) => (RANK_OF[b] - RANK_OF[a]) * dir); // most advanced first
      const idx = same.indexOf(from);
      if (which === '前' && idx !== 0) continue;
      if (which === '后' && idx !== same.length - 1) continue;
      if (which === '中' && (idx === 0 || idx === same.length - 1)) continue;
    }
    const df = FILE_OF[to] - FILE_OF[from], dr = (RANK_OF[to] - RANK_OF[from]) * dir;
    const straight = type === 1 || type === 3 || type === 4 || type === 7;
    let ok;
    if (action === '平') ok = dr === 0 && FILE_OF[to] === fileIdx(n);
    else if (action === '进' || action === '進' || action === '退') {
      const sign = action === '退' ? -1 : 1;
      if (straight) ok = df === 0 && dr === sign * n;
      else ok = Math.sign(dr) === sign && FILE_OF[to] === fileIdx(n);
    } else throw new Error(`bad action in ${text}`);
    if (ok) candidates.push(m);
  }
  if (candidates.length !== 1) throw new Error(`${text}: ${candidates.length} candidates in ${pos.fen()}`);
  return candidates[0];
}

if (import.meta.url === `file://${process.argv[1]}` && process.argv[2]) {
  const lines = readFileSync(process.argv[2], 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (!l.startsWith('case ')) continue;
    const [head, note] = l.split(' | ');
    const fen = lines[i + 1].trim();
    const moves = lines[i + 2].trim().split(/\s+/);
    const pos = new Position(fen);
    const uci = [];
    for (const mv of moves) {
      const m = chineseToMove(pos, mv);
      uci.push(moveToUci(m));
      pos.doMove(m);
    }
    console.log(`${head.replace('case ', 'tiantian-')}\t${fen}\t${uci.join(' ')}\t${note}`);
  }
}
