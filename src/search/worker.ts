// The search thread. The protocol thread never searches: it posts `go`
// messages here and keeps reading commands, so `isready` and `stop` are answered
// within milliseconds. Stop/ponderhit travel through a SharedArrayBuffer that
// each `go` brings with it (signals[0] = stop, signals[1] = ponderhit).

import { parentPort } from 'node:worker_threads';
import { Position } from '../core/position.js';
import type { Move } from '../core/types.js';
import { NnueNetwork, type NetworkHandle } from '../eval/nnue/network.js';
import { Searcher } from './search.js';
import type { SearchLimits, SearchOptions } from './types.js';

export type ToWorker =
  | { type: 'go'; id: number; fen: string; moves: Move[]; limits: SearchLimits; options: SearchOptions; signals: SharedArrayBuffer }
  | { type: 'hash'; mb: number }
  | { type: 'clear' }
  | { type: 'hashfull'; id: number }
  | { type: 'net'; net: NetworkHandle | null };

export type FromWorker =
  | { type: 'info'; id: number; info: import('./types.js').SearchInfo }
  | { type: 'text'; id: number; line: string }
  | { type: 'done'; id: number; result: import('./types.js').SearchResult }
  | { type: 'hashfull'; id: number; value: number }
  | { type: 'error'; id: number; message: string };

const port = parentPort;
if (!port) throw new Error('worker.ts must run in a worker thread');

let searcher = new Searcher(16);
let network: NnueNetwork | null = null;

port.on('message', (msg: ToWorker) => {
  const post = (m: FromWorker) => port.postMessage(m);
  switch (msg.type) {
    case 'go': {
      try {
        const pos = new Position(msg.fen);
        for (const m of msg.moves) pos.doMove(m);
        const signals = new Int32Array(msg.signals);
        const result = searcher.search(pos, msg.limits, msg.options, {
          signals,
          info: (info) => post({ type: 'info', id: msg.id, info }),
          text: (line) => post({ type: 'text', id: msg.id, line }),
        });
        post({ type: 'done', id: msg.id, result });
      } catch (e) {
        post({ type: 'error', id: msg.id, message: (e as Error).stack ?? String(e) });
      }
      break;
    }
    case 'hash':
      try {
        searcher.resizeHash(msg.mb);
      } catch {
        searcher = new Searcher(16);
        searcher.setNetwork(network);
        post({ type: 'text', id: 0, line: `ERROR: could not allocate ${msg.mb} MB for the hash table; using 16 MB` });
      }
      break;
    case 'net':
      // The weights arrive in shared memory: every thread reads the same copy.
      network = msg.net ? NnueNetwork.fromHandle(msg.net) : null;
      searcher.setNetwork(network);
      break;
    case 'clear':
      searcher.clear();
      break;
    case 'hashfull':
      post({ type: 'hashfull', id: msg.id, value: searcher.hashfull() });
      break;
  }
});
