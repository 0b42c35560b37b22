// Checkpoints of `kirin train`, written after every epoch: the run's
// configuration and data identity (JSON), the epochs and steps done, the loss
// history, and the float parameters with Adam's two moments. The shuffles and
// the learning rate are functions of (seed, epoch, step), so this is all a
// resumed run needs to continue exactly as an uninterrupted one.
//
//   0   8 bytes  magic "KIRINCKP"
//   8   u32      version (1)
//   12  u32      JSON length L, then L bytes of UTF-8 JSON, zero-padded to 4 bytes
//   then float32 parameters, Adam m, Adam v (P each, P in the JSON)
//   last 4 bytes: u32 FNV-1a of every byte before it

import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { err, ok, type Result } from '../../src/dev.js';
import { fnv1a } from '../../src/eval/kirinnet/format.js';
import type { Checkpoint, EpochStats, TrainConfig } from './trainer.js';

export type { Checkpoint } from './trainer.js';

const MAGIC = 'KIRINCKP';
const VERSION = 1;

/** What identifies a run: its configuration and its data. */
export interface RunIdentity {
  readonly config: TrainConfig;
  /** Options that shape the data (filters, validation fraction). */
  readonly dataOptions: Record<string, number | boolean>;
  readonly files: readonly { readonly records: number; readonly hash: number }[];
}

export function encodeCheckpoint(id: RunIdentity, c: Checkpoint): Uint8Array {
  const json = new TextEncoder().encode(
    JSON.stringify({
      identity: id,
      epochsDone: c.epochsDone,
      step: c.step,
      history: c.history,
      size: c.params.length,
    }),
  );
  const jsonPadded = Math.ceil(json.length / 4) * 4;
  const P = c.params.length;
  const out = new Uint8Array(16 + jsonPadded + 12 * P + 4);
  for (let i = 0; i < 8; i++) out[i] = MAGIC.charCodeAt(i);
  const dv = new DataView(out.buffer);
  dv.setUint32(8, VERSION, true);
  dv.setUint32(12, json.length, true);
  out.set(json, 16);
  let at = 16 + jsonPadded;
  for (const t of [c.params, c.adamM, c.adamV]) {
    for (let i = 0; i < P; i++) dv.setFloat32(at + 4 * i, t[i], true);
    at += 4 * P;
  }
  dv.setUint32(at, fnv1a(out, at), true);
  return out;
}

/** Writes a checkpoint file (through a temporary file, so an interruption leaves the previous one whole). */
export function saveCheckpoint(path: string, id: RunIdentity, c: Checkpoint): void {
  writeFileSync(path + '.tmp', encodeCheckpoint(id, c));
  renameSync(path + '.tmp', path);
}

/** A checkpoint file's run and state. */
export interface SavedRun {
  identity: RunIdentity;
  checkpoint: Checkpoint;
}

/** Reads a checkpoint's bytes (`name` in messages): the run, or why the bytes are not one. */
export function decodeCheckpoint(bytes: Uint8Array, name: string): Result<SavedRun, 'checkpoint'> {
  const fail = (why: string) => err('checkpoint', `${name}: ${why}`);
  if (bytes.length < 20) return fail('not a kirin train checkpoint (too short)');
  for (let i = 0; i < 8; i++)
    if (bytes[i] !== MAGIC.charCodeAt(i)) return fail('not a kirin train checkpoint (no KIRINCKP magic)');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = dv.getUint32(8, true);
  if (version !== VERSION) return fail(`checkpoint version ${version} (this trainer reads ${VERSION})`);
  const hashAt = bytes.length - 4;
  if (dv.getUint32(hashAt, true) !== fnv1a(bytes, hashAt)) return fail('damaged checkpoint (hash mismatch)');
  const jsonLength = dv.getUint32(12, true);
  if (16 + jsonLength > hashAt) return fail('damaged checkpoint (JSON length)');
  let meta: { identity: RunIdentity; epochsDone: number; step: number; history: EpochStats[]; size: number };
  try {
    meta = JSON.parse(new TextDecoder().decode(bytes.subarray(16, 16 + jsonLength)));
  } catch {
    return fail('damaged checkpoint (JSON)');
  }
  const P = meta.size;
  let at = 16 + Math.ceil(jsonLength / 4) * 4;
  if (at + 12 * P !== hashAt) return fail('damaged checkpoint (size)');
  const read = () => {
    const t = new Float32Array(P);
    for (let i = 0; i < P; i++) t[i] = dv.getFloat32(at + 4 * i, true);
    at += 4 * P;
    return t;
  };
  const params = read(),
    adamM = read(),
    adamV = read();
  return ok({
    identity: meta.identity,
    checkpoint: { epochsDone: meta.epochsDone, step: meta.step, history: meta.history, params, adamM, adamV },
  });
}

/** Reads a checkpoint file: the run, or why it cannot be read or is not one (the message names the file). */
export function loadCheckpoint(path: string): Result<SavedRun, 'checkpoint'> {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    return err('checkpoint', `${path}: cannot read the checkpoint (${(e as Error).message})`);
  }
  return decodeCheckpoint(bytes, path);
}

/** The differences between a checkpoint's run and this one ("--lr: 0.001 in the checkpoint, 0.002 now"). */
export function identityDifferences(saved: RunIdentity, now: RunIdentity): string[] {
  const out: string[] = [];
  const flat = (id: RunIdentity): Map<string, string> => {
    const m = new Map<string, string>();
    for (const [k, v] of Object.entries(id.config)) m.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
    for (const [k, v] of Object.entries(id.dataOptions)) m.set(k, String(v));
    m.set('data files', id.files.map((f) => `${f.records} records, hash ${f.hash.toString(16)}`).join('; '));
    return m;
  };
  const a = flat(saved),
    b = flat(now);
  for (const key of new Set([...a.keys(), ...b.keys()]))
    if (a.get(key) !== b.get(key))
      out.push(`${key}: ${a.get(key) ?? '(none)'} in the checkpoint, ${b.get(key) ?? '(none)'} now`);
  return out;
}
