// What a worker's owner lets the cluster do on the worker: which engine
// command lines it runs for SPRT jobs, which engine options a job may set, and
// how much memory and how many threads a job may ask for. A worker publishes
// its policy in its status record, so that a coordinator refuses a run that a
// live worker would refuse before anything is queued (docs/CLUSTER.md,
// Security); the worker itself checks every run against it (validate.ts).
//
// Engine command lines are compared by what they run, not word for word: each
// is split like a shell would (splitCommand), its program looked up on PATH
// when it has no '/', and every word that is a path (it has a '/', or names a
// file in the folder the engine starts in) replaced by its real path, so
// `node ./bin/kirin.js`, `node bin/kirin.js` and `/usr/bin/node /opt/k/bin/kirin.js`
// from /opt/k are one command.

import { accessSync, constants, existsSync, realpathSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { err, ok, type Result } from '../../src/dev.js';
import { splitCommand } from '../match/uci-engine.js';

/**
 * Engine options a job may set by default: what changes how an engine plays or
 * reports, nothing that names a file. `Debug Log File` writes a file and is never
 * allowed; `EvalFile` reads one and needs the owner's `--allow-option EvalFile`.
 */
export const DEFAULT_OPTIONS: readonly string[] = [
  'Hash',
  'Threads',
  'Clear Hash',
  'Ponder',
  'MultiPV',
  'Skill Level',
  'UCI_LimitStrength',
  'UCI_Elo',
  'Move Overhead',
  'nodestime',
  'UCI_ShowWDL',
  'Rule60MaxPly',
  'Mate Threat Depth',
  'Repetition Rule',
  'DrawRule',
  'ScoreType',
  'LU_Output',
  'Use NNUE',
];

/** Options no policy allows: they write files on the worker. */
const NEVER = ['debug log file'];

/** What a worker allows (as given by its owner; see WorkerPolicy in the worker's record). */
export interface WorkerPolicy {
  /** Engine command lines it runs for SPRT jobs, as given; ['any'] runs every one. */
  engines: string[];
  /** The folder relative engine paths are resolved in (the worker's working directory). */
  cwd: string;
  /** Engine option names a job may set (case does not matter). */
  options: string[];
  /** The most hash (MB) a job may ask for, per engine or search. */
  maxHash: number;
  /** The most search threads a job may ask for, per engine. */
  maxThreads: number;
}

/** The engines a worker runs without --allow-engine: this checkout's Kirin. */
export function defaultEngines(): string[] {
  const bin = fileURLToPath(new URL('../../../bin/kirin.js', import.meta.url));
  return [`node ${bin}`, bin];
}

/** A worker's policy from its owner's flags (absent ones at their defaults). */
export function workerPolicy(p: Partial<WorkerPolicy> & { extraOptions?: readonly string[] } = {}): WorkerPolicy {
  const extra = (p.extraOptions ?? []).filter((o) => !NEVER.includes(o.toLowerCase()));
  return {
    engines: p.engines ?? defaultEngines(),
    cwd: p.cwd ?? process.cwd(),
    options: p.options ?? [...DEFAULT_OPTIONS, ...extra],
    maxHash: p.maxHash ?? 1024,
    maxThreads: p.maxThreads ?? availableParallelism(),
  };
}

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function onPath(name: string, env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const full = join(dir, name);
    try {
      if (statSync(full).isFile()) {
        accessSync(full, constants.X_OK);
        return full;
      }
    } catch {
      /* not here */
    }
  }
  return null;
}

/**
 * What a command line runs, as words: the program found on PATH (or resolved
 * when it has a '/'), every word that is a path resolved to its real path
 * (relative to `cwd`). Two command lines run the same thing when these are equal.
 */
export function canonicalCommand(
  command: string,
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Result<string[], 'engine-command'> {
  const split = splitCommand(command);
  if (!split.ok) return split;
  return ok(
    split.value.map((word, i) => {
      if (i === 0 && !word.includes('/')) {
        const found = onPath(word, env);
        return found ? realOrResolved(found) : word;
      }
      if (word.startsWith('-') && !word.includes('/')) return word;
      const full = isAbsolute(word) ? word : resolve(cwd, word);
      if (word.includes('/') || existsSync(full)) return realOrResolved(full);
      return word;
    }),
  );
}

/** Whether the policy runs `command` (compared by canonicalCommand in the policy's folder). */
export function engineAllowed(command: string, policy: WorkerPolicy, env: NodeJS.ProcessEnv = process.env): boolean {
  if (policy.engines.includes('any')) return true;
  const want = canonicalCommand(command, policy.cwd, env);
  if (!want.ok) return false;
  const key = want.value.join('\u0000');
  return policy.engines.some((a) => {
    const c = canonicalCommand(a, policy.cwd, env);
    return c.ok && c.value.join('\u0000') === key;
  });
}

/** Whether the policy lets a job set engine option `name`. */
export function optionAllowed(name: string, policy: WorkerPolicy): boolean {
  const n = name.trim().toLowerCase();
  if (NEVER.includes(n)) return false;
  return policy.options.some((o) => o.toLowerCase() === n);
}

/**
 * An option's value within the policy's limits (Hash and Threads); the error
 * names the option, its value and the limit.
 */
export function optionWithinLimits(name: string, value: string, policy: WorkerPolicy): Result<null, 'limit'> {
  const n = name.trim().toLowerCase();
  const limit = n === 'hash' ? policy.maxHash : n === 'threads' ? policy.maxThreads : null;
  if (limit === null) return ok(null);
  const v = Number(value.trim());
  if (!/^\d+$/.test(value.trim()) || v > limit)
    return err(
      'limit',
      `option ${name}=${value}: this worker allows at most ${limit} (${n === 'hash' ? '--max-hash' : '--max-threads'})`,
    );
  return ok(null);
}
