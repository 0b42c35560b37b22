// What this browser offers Kirin, and what it lacks, in words for a player. The
// search thread needs SharedArrayBuffer, which a browser gives only to a
// cross-origin isolated page; a network (NNUE) evaluates fastest with the
// WebAssembly SIMD kernels, and without them with the portable kernels (the
// same numbers, slower).

import { wasmSimdSupported } from '../platform/simd.js';
import { web } from '../platform/browser/web.js';

/** The facts support is judged from. */
export interface SupportFacts {
  /** self.crossOriginIsolated (undefined where the runtime has no such notion, as Node). */
  crossOriginIsolated: boolean | undefined;
  sharedArrayBuffer: boolean;
  webAssembly: boolean;
  wasmSimd: boolean;
}

export interface SupportProblem {
  /** True when Kirin cannot search at all; false when it plays, slower. */
  blocking: boolean;
  message: string;
}

export interface BrowserSupport extends SupportFacts {
  /** The search thread can run (SharedArrayBuffer, in a cross-origin isolated page). */
  canSearch: boolean;
  /** What is missing, the blocking problems first; empty when nothing is. */
  problems: readonly SupportProblem[];
}

/**
 * Judges `facts`: whether Kirin can search, and each missing piece as a
 * sentence; `missingFiles` are the files kirin.js could not fetch from beside
 * itself (the kernels, the embedded network), each a sentence naming its URL.
 */
export function judgeSupport(facts: SupportFacts, missingFiles: readonly string[] = []): BrowserSupport {
  const problems: SupportProblem[] = [];
  if (facts.crossOriginIsolated === false)
    problems.push({
      blocking: true,
      message:
        'This page is not cross-origin isolated, so the browser gives it no SharedArrayBuffer and Kirin cannot search. ' +
        'Its server must send Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp, ' +
        "or a service worker must add them to the page's responses (the Kirin page's sw.js does where the browser " +
        'gives it one).',
    });
  else if (!facts.sharedArrayBuffer)
    problems.push({
      blocking: true,
      message:
        'This browser has no SharedArrayBuffer, so Kirin cannot search (current Chrome, Edge, Firefox and Safari have it).',
    });
  if (!facts.webAssembly)
    problems.push({
      blocking: false,
      message:
        'This browser runs no WebAssembly (switched off, or a JIT-less mode): Kirin plays, but a network (NNUE) ' +
        'evaluates with the portable kernels, much slower.',
    });
  else if (!facts.wasmSimd)
    problems.push({
      blocking: false,
      message:
        'This browser lacks WebAssembly SIMD: Kirin plays, but a network (NNUE) evaluates with the portable kernels, ' +
        'slower (the same moves).',
    });
  for (const file of missingFiles)
    problems.push({
      blocking: false,
      message: `${file}. The package's dist/browser/ files belong beside the bundle that imports kirin.js.`,
    });
  const canSearch = !problems.some((p) => p.blocking);
  return Object.freeze({ ...facts, canSearch, problems: Object.freeze(problems.map((p) => Object.freeze(p))) });
}

/** What this browser (or worker, or runtime) offers Kirin; `missingFiles` as judgeSupport takes them. */
export function runtimeSupport(missingFiles: readonly string[] = []): BrowserSupport {
  return judgeSupport(
    {
      crossOriginIsolated: web.crossOriginIsolated,
      sharedArrayBuffer: typeof SharedArrayBuffer === 'function',
      webAssembly: typeof (globalThis as { WebAssembly?: unknown }).WebAssembly === 'object',
      wasmSimd: wasmSimdSupported(),
    },
    missingFiles,
  );
}
