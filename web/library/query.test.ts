import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseGames } from '../../src/browser/index.js';
import { foldText, queryRecords } from './query.js';
import { recordFromGame, type GameRecord, type GameSource } from './record.js';

function rec(id: string, pgn: string, updated: number, source: GameSource = 'imported', title = ''): GameRecord {
  const g = parseGames(pgn)[0];
  assert.ok(g.ok, id);
  const r = recordFromGame(g.value, { id, source, now: updated, title });
  assert.ok(r.ok, id);
  return r.value;
}

const RECORDS = [
  rec(
    'xu',
    '[Red "许银川"]\n[Black "吕钦"]\n[Event "全国象棋个人赛"]\n[Date "1999.05.01"]\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ 1-0',
    30,
  ),
  rec('lu', '[Red "呂欽"]\n[Black "許銀川"]\n[Event "五羊杯"]\n[Date "2001.01.03"]\n1. 兵七进一 卒７进１ 1/2-1/2', 10),
  rec(
    'kirin',
    '[Red "棋手"]\n[Black "Kirin（等级 5）"]\n[Date "2026.01.05"]\n1. 相三进五 0-1',
    50,
    'played',
    '让先练习',
  ),
  rec('open', '[Red "Zhao"]\n[Black "Ke"]\n1. 炮二平五 炮８平５ *', 40, 'analysis'),
];
const ids = (rs: GameRecord[]): string[] => rs.map((r) => r.id);

test('the list: the last saved first, or by date, players, opening or length', () => {
  assert.deepEqual(ids(queryRecords(RECORDS)), ['kirin', 'open', 'xu', 'lu']);
  assert.deepEqual(ids(queryRecords(RECORDS, { sort: 'date' })), ['kirin', 'lu', 'xu', 'open']);
  assert.deepEqual(ids(queryRecords(RECORDS, { sort: 'date', reverse: true })), ['open', 'xu', 'lu', 'kirin']);
  assert.deepEqual(
    ids(queryRecords(RECORDS, { sort: 'plies' })),
    ['kirin', 'open', 'lu', 'xu'],
    'ties: the last saved first',
  );
  // Chinese names in pinyin order: 呂 lü, 棋 qi, 许 xu.
  assert.deepEqual(
    ids(queryRecords(RECORDS, { sort: 'red' })).filter((id) => id !== 'open'),
    ['lu', 'kirin', 'xu'],
  );
  const byOpening = queryRecords(RECORDS, { sort: 'opening' });
  for (let i = 1; i < byOpening.length; i++) assert.ok(byOpening[i - 1].eccoCode <= byOpening[i].eccoCode);
  assert.equal(RECORDS.length, 4, 'the input is left as it is');
  assert.deepEqual(ids(RECORDS), ['xu', 'lu', 'kirin', 'open']);
});

test('search by player, event, opening or name; simplified and traditional forms find each other', () => {
  assert.deepEqual(ids(queryRecords(RECORDS, { text: '许银川' })), ['xu', 'lu']);
  assert.deepEqual(ids(queryRecords(RECORDS, { text: '許銀川' })), ['xu', 'lu']);
  assert.deepEqual(ids(queryRecords(RECORDS, { text: '吕钦 五羊杯' })), ['lu'], 'every word must match');
  assert.deepEqual(ids(queryRecords(RECORDS, { text: 'kirin' })), ['kirin']);
  assert.deepEqual(ids(queryRecords(RECORDS, { text: '练习' })), ['kirin'], "the game's own name");
  assert.deepEqual(ids(queryRecords(RECORDS, { text: 'ZHAO' })), ['open']);
  assert.deepEqual(ids(queryRecords(RECORDS, { text: '1999' })), ['xu']);
  const xu = RECORDS[0];
  assert.deepEqual(ids(queryRecords(RECORDS, { text: xu.eccoCode.toLowerCase() })).includes('xu'), true);
  assert.ok(xu.opening !== '');
  assert.ok(ids(queryRecords(RECORDS, { text: xu.opening.slice(0, 4) })).includes('xu'));
  assert.deepEqual(ids(queryRecords(RECORDS, { text: '聂卫平' })), []);
  assert.equal(foldText('中炮過河車 ＡＢ'), '中炮过河车 ab');
});

test('filter by result and by where the game came from', () => {
  assert.deepEqual(ids(queryRecords(RECORDS, { result: '1-0' })), ['xu']);
  assert.deepEqual(ids(queryRecords(RECORDS, { result: '0-1' })), ['kirin']);
  assert.deepEqual(ids(queryRecords(RECORDS, { result: '1/2-1/2' })), ['lu']);
  assert.deepEqual(ids(queryRecords(RECORDS, { result: '*' })), ['open']);
  assert.deepEqual(ids(queryRecords(RECORDS, { result: 'any', source: 'played' })), ['kirin']);
  assert.deepEqual(ids(queryRecords(RECORDS, { source: 'imported', text: '吕钦' })), ['xu', 'lu']);
});
