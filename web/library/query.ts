// Finding games in the library: a search text (players, event, opening, the
// game's own name, the date), a result, a source, and an order. Pure.

import type { GameResult } from '../../src/browser/index.js';
import type { GameRecord, GameSource } from './record.js';

export type SortKey = 'updated' | 'date' | 'red' | 'black' | 'opening' | 'plies';

export interface LibraryQuery {
  /** Words that must all appear (in any of the fields searched); case and 繁/简 forms do not matter. */
  readonly text?: string;
  /** Only games with this result ('any' or absent: all). */
  readonly result?: GameResult | 'any';
  /** Only games from this source ('any' or absent: all). */
  readonly source?: GameSource | 'any';
  /** The order (default 'updated': the last saved first). */
  readonly sort?: SortKey;
  /** Reverse the key's natural order (for 'updated' and 'date' the natural order is the latest first). */
  readonly reverse?: boolean;
}

/**
 * Traditional characters common in players' names, events and opening names,
 * with their simplified forms: a search in either finds both (中炮過河車 finds
 * 中炮过河车, 許銀川 finds 许银川).
 */
const TO_SIMPLIFIED: Readonly<Record<string, string>> = Object.fromEntries(
  [
    '紅红勝胜負负車车馬马傌马俥车砲炮過过對对進进頭头風风順顺後后邊边開开關关將将帥帅師师盤盘兌兑轉转',
    '衝冲擊击變变飛飞應应橫横雙双單单歸归龍龙鳳凤劍剑貼贴陣阵佈布穩稳斷断騰腾當当兩两補补級级賽赛',
    '隊队國国會会聯联盃杯華华東东廣广陽阳蘇苏遼辽滬沪門门業业陳陈許许呂吕趙赵劉刘楊杨張张鄭郑謝谢',
    '黃黄馮冯孫孙葉叶鍾钟蔣蒋閻阎銀银鵬鹏輝辉澤泽濤涛軍军偉伟賢贤劃划緩缓騎骑卻却貫贯營营線线點点',
    '鋒锋隨随內内亞亚藝艺團团體体賓宾網网灣湾欽钦鈞钧錫锡賀贺鐵铁瑩莹靜静麗丽曉晓強强傑杰廈厦濱滨鄧邓韓韩盧卢羅罗',
  ]
    .join('')
    .match(/../gu)!
    .map((pair) => [pair[0], pair[1]] as [string, string]),
);

/** Text folded for searching: lower case, full-width forms narrowed, traditional characters simplified. */
export function foldText(text: string): string {
  return [...text.normalize('NFKC').toLowerCase()].map((c) => TO_SIMPLIFIED[c] ?? c).join('');
}

/** The text of a record that a search looks in. */
function searched(r: GameRecord): string {
  return foldText([r.title, r.red, r.black, r.event, r.eccoCode, r.opening, r.date].join('\n'));
}

const byText = (a: string, b: string): number => a.localeCompare(b, 'zh');

function compare(key: SortKey): (a: GameRecord, b: GameRecord) => number {
  switch (key) {
    case 'updated':
      return (a, b) => b.updated - a.updated;
    case 'date':
      // The latest first; undated games ('', '????.??.??') last; the same date: the last saved first.
      return (a, b) => byText(b.date.replace(/\?/g, ' '), a.date.replace(/\?/g, ' ')) || b.updated - a.updated;
    case 'red':
      return (a, b) => byText(a.red, b.red) || b.updated - a.updated;
    case 'black':
      return (a, b) => byText(a.black, b.black) || b.updated - a.updated;
    case 'opening':
      return (a, b) => byText(a.eccoCode, b.eccoCode) || byText(a.opening, b.opening) || b.updated - a.updated;
    case 'plies':
      return (a, b) => a.plies - b.plies || b.updated - a.updated;
  }
}

/** The records that match the query, in its order (a new array; the input is left as it is). */
export function queryRecords(records: readonly GameRecord[], q: LibraryQuery = {}): GameRecord[] {
  const words = foldText(q.text ?? '')
    .split(/\s+/)
    .filter((w) => w !== '');
  const out = records.filter((r) => {
    if (q.result !== undefined && q.result !== 'any' && r.result !== q.result) return false;
    if (q.source !== undefined && q.source !== 'any' && r.source !== q.source) return false;
    if (words.length === 0) return true;
    const text = searched(r);
    return words.every((w) => text.includes(w));
  });
  out.sort(compare(q.sort ?? 'updated'));
  if (q.reverse) out.reverse();
  return out;
}
