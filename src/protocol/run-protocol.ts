// The engine's command loop on stdin (src/main.ts): the first non-blank line
// chooses the protocol - `ucci` the UCCI session (ucci.ts), anything else UCI
// (uci.ts) - and runSession() (uci.ts) reads the rest, that line included.

import type { Engine } from '../engine/engine.js';
import { Ucci } from './ucci.js';
import { runSession, Uci, type Session, type Writer } from './uci.js';

/**
 * The command loop for stdin: the first non-blank line chooses the protocol
 * (`ucci`: UCCI, anything else: UCI), then runSession() reads the rest.
 */
export async function runProtocol(engine: Engine, lines: AsyncIterable<string>, write: Writer): Promise<void> {
  const it = lines[Symbol.asyncIterator]();
  const head: string[] = [];
  let ucci = false;
  let ended = false;
  for (;;) {
    const r = await it.next();
    if (r.done) {
      ended = true;
      break;
    }
    head.push(r.value);
    if (r.value.trim() !== '') {
      ucci = r.value.trim() === 'ucci';
      break;
    }
  }
  async function* all(): AsyncGenerator<string> {
    yield* head;
    if (ended) return;
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      yield r.value;
    }
  }
  const session: Session = ucci ? new Ucci(engine, write) : new Uci(engine, write);
  await runSession(session, engine, all(), write);
}
