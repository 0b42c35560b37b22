// A training thread (commands/train/pool.ts): builds its Core from workerData,
// answers "ready", then runs each operation it is sent and answers when done.

import { parentPort, workerData } from 'node:worker_threads';
import { Core, type CoreConfig, type CoreOp, type CoreShared } from './core.js';

const { config, shared, index } = workerData as { config: CoreConfig; shared: CoreShared; index: number };
const port = parentPort!;
try {
  const core = new Core(config, shared, index);
  port.on('message', (op: CoreOp) => {
    try {
      core.run(op);
      port.postMessage({ ok: true });
    } catch (e) {
      port.postMessage({ ok: false, error: (e as Error).stack ?? String(e) });
    }
  });
  port.postMessage({ ok: true });
} catch (e) {
  port.postMessage({ ok: false, error: (e as Error).stack ?? String(e) });
}
