// One `kirin data stats` worker thread: reads the files it is given, one at a
// time, and posts each one's stats (or why it cannot be read) to the main
// thread (stats.ts, statsOfFiles).

import { parentPort } from 'node:worker_threads';
import { fileStats, type StatsReply } from './stats.js';

parentPort!.on('message', (msg: { index: number; path: string }) => {
  const r = fileStats(msg.path);
  const reply: StatsReply = r.ok
    ? { index: msg.index, stats: r.value, error: null }
    : { index: msg.index, stats: null, error: r.error.message };
  parentPort!.postMessage(reply);
});
