// The threads of a training run: the main thread alone (one thread), or worker
// threads (commands/train/worker.ts) that each run a Core over the shared memory.
// run() gives every thread the same operation and resolves when all are done.

import { Worker } from 'node:worker_threads';
import { Core, type CoreConfig, type CoreOp, type CoreShared } from './core.js';

export interface Pool {
  run(op: CoreOp): Promise<void>;
  close(): Promise<void>;
}

type Reply = { ok: true } | { ok: false; error: string };

export async function createPool(config: CoreConfig, shared: CoreShared): Promise<Pool> {
  if (config.threads === 1) {
    const core = new Core(config, shared, 0);
    return {
      run: (op) => {
        core.run(op);
        return Promise.resolve();
      },
      close: () => Promise.resolve(),
    };
  }
  const workers: Worker[] = [];
  const waiting: ((r: Reply) => void)[] = [];
  const url = new URL('./worker.js', import.meta.url);
  const started: Promise<Reply>[] = [];
  for (let index = 0; index < config.threads; index++) {
    const w = new Worker(url, { workerData: { config, shared, index } });
    workers.push(w);
    started.push(
      new Promise<Reply>((resolve) => {
        waiting[index] = resolve;
      }),
    );
    w.on('message', (r: Reply) => waiting[index](r));
    w.on('error', (e) => waiting[index]({ ok: false, error: e.stack ?? String(e) }));
    w.on('exit', (code) => waiting[index]({ ok: false, error: `training thread ${index} exited (code ${code})` }));
  }
  const all = async (replies: Promise<Reply>[]): Promise<void> => {
    const rs = await Promise.all(replies);
    const bad = rs.find((r) => !r.ok);
    if (bad && !bad.ok) throw new Error(bad.error);
  };
  try {
    await all(started);
  } catch (e) {
    await Promise.all(workers.map((w) => w.terminate()));
    throw e;
  }
  return {
    run(op) {
      const replies = workers.map(
        (w, i) =>
          new Promise<Reply>((resolve) => {
            waiting[i] = resolve;
            w.postMessage(op);
          }),
      );
      return all(replies);
    },
    async close() {
      for (let i = 0; i < workers.length; i++) waiting[i] = () => {};
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
