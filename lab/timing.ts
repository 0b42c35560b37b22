// Timing for the lab's measurements. On a shared machine one run says little:
// the scripts measure several times and report medians. Here is how they do it:
//
//   interleave(contenders, rounds, measure, { alternate, each })
//     measures every contender once a round, so that a change in the machine's
//     load falls on all of them alike (with `alternate`, in reverse order every
//     other round, so that none is always first); the samples per contender.
//   repeat(count, measure, each)
//     the same for one thing measured `count` times.
//   medianOf(samples, pick)
//     the median of one number of the samples.
//   timed(work)
//     the wall time and the CPU time (all threads of the process) of a piece of work.
//   throughput(seconds, batch, warmups)
//     work per second: `batch` again and again for about `seconds`.

import { median } from '../toolkit/stats.js';

/** Sees each sample as it comes (to print a progress line). */
type Each<C, S> = (sample: S, contender: C, round: number) => void;

/**
 * Measures each of `contenders` `rounds` times, one round after the other,
 * every contender once a round (`alternate`: in reverse order on the odd
 * rounds). `each` sees every sample as it comes. The samples of each contender
 * (in the order of `contenders`), in round order. An exception of `measure`
 * ends the measurement.
 */
export async function interleave<C, S>(
  contenders: readonly C[],
  rounds: number,
  measure: (contender: C, round: number) => S | Promise<S>,
  options: { alternate?: boolean; each?: Each<C, S> } = {},
): Promise<S[][]> {
  const samples: S[][] = contenders.map(() => []);
  const order = contenders.map((_, i) => i);
  for (let round = 0; round < rounds; round++) {
    for (const i of options.alternate && round % 2 === 1 ? [...order].reverse() : order) {
      const sample = await measure(contenders[i], round);
      samples[i].push(sample);
      options.each?.(sample, contenders[i], round);
    }
  }
  return samples;
}

/** Measures `count` times, one after the other; `each` sees every sample as it comes. The samples in order. */
export async function repeat<S>(
  count: number,
  measure: (round: number) => S | Promise<S>,
  each?: (sample: S, round: number) => void,
): Promise<S[]> {
  const [samples] = await interleave([null], count, (_, round) => measure(round), {
    each: each && ((sample, _, round) => each(sample, round)),
  });
  return samples;
}

/** The median of `pick` over a non-empty list of samples. */
export function medianOf<S>(samples: readonly S[], pick: (sample: S) => number): number {
  return median(samples.map(pick));
}

/** What `work` gave, with its wall time and the process's CPU time (user + system, all threads) meanwhile. */
export async function timed<T>(work: () => T | Promise<T>): Promise<{ value: T; ms: number; cpuMs: number }> {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const value = await work();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { value, ms, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/**
 * Work per second: `batch` (which does some work and says how much) called
 * `warmups` times uncounted, so that the optimising compiler has run, then
 * again and again until `seconds` have passed.
 */
export function throughput(
  seconds: number,
  batch: () => number,
  warmups = 0,
): { work: number; ms: number; perSecond: number } {
  for (let i = 0; i < warmups; i++) batch();
  let work = 0;
  let ms = 0;
  const t0 = performance.now();
  do {
    work += batch();
    ms = performance.now() - t0;
  } while (ms < seconds * 1000);
  return { work, ms, perSecond: (work * 1000) / ms };
}
