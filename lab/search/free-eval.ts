// What the search would cost if the static evaluation were free: the 49 bench
// positions searched three ways in one process, on one search thread:
//
//   node dist/lab/search/free-eval.js [--net FILE | --classical] [--depth 11]
//        [--rounds 2] [--hash 16] [--rule ComputerRule] [--native PATH] [--json]
//
// - plain: as `bench` searches them (one clear, then the positions in order);
// - record: the same, keeping every value the evaluation returned, in order;
// - replay: the same again, the evaluation answered from the record, in order,
//   so nothing of it runs (no accumulator update, no forward pass, no classical
//   terms) while the search visits the same nodes (checked: a replay that asks
//   for more values than were recorded, or ends on other node counts, fails).
//
// plain / replay time is the evaluation's share of the search; replay nodes/s is
// the most a faster evaluation could give this search. Without --net or
// --classical the embedded network. A measurement, not a test: compare within
// one run. `--rule ComputerRule` is what `native-compare` uses, so that the
// node counts match native Pikafish's `bench` with the same network; with
// `--native PATH` (and --net) each round also runs that native engine's
// `bench HASH 1 DEPTH` with the network in a fresh process, and the ratios of
// both of Kirin's passes to it are printed (issue 22's measure, and the most a
// faster evaluation could bring it to).

import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Position, REPETITION_RULES } from '../../src/dev.js';
import { DEFAULT_RULES, ruleConfigFrom } from '../../src/core/rules.js';
import { loadEmbeddedNetwork, loadEvalNetwork, type EvalNetwork } from '../../src/eval/networks.js';
import { BENCH_FENS } from '../../src/protocol/benchpositions.js';
import { Searcher } from '../../src/search/search.js';
import { DEFAULT_SEARCH_OPTIONS } from '../../src/search/types.js';
import { commandSpec, scriptCommandLine } from '../../toolkit/command-line.js';
import { exitWithError, isMain } from '../../toolkit/script.js';
import { benchInput, runBench } from '../nnue/native-compare.js';
import { medianOf, repeat } from '../timing.js';

const USAGE =
  'usage: node dist/lab/search/free-eval.js [--net FILE | --classical] [--depth 11] [--rounds 2] [--hash 16]\n' +
  `           [--rule ${REPETITION_RULES.join('|')}] [--native PATH] [--json]`;

type Mode = 'plain' | 'record' | 'replay';

/** A Searcher whose static evaluations are recorded, or answered from the record, in the order asked. */
export class ReplayingSearcher extends Searcher {
  private mode: Mode = 'plain';
  private values = new Int32Array(1 << 16);
  private recorded = 0;
  private next = 0;

  /** Starts a new record (mode 'record') or the replay of the last one from its start (mode 'replay'). */
  begin(mode: Mode): void {
    this.mode = mode;
    if (mode === 'record') this.recorded = 0;
    this.next = 0;
  }

  /** Values recorded, and values replayed so far. */
  counts(): { recorded: number; replayed: number } {
    return { recorded: this.recorded, replayed: this.next };
  }

  protected override evaluate(): number {
    if (this.mode === 'replay') {
      if (this.next >= this.recorded)
        throw new Error('free-eval: the replay asked for more evaluations than were recorded');
      return this.values[this.next++];
    }
    const v = super.evaluate();
    if (this.mode === 'record') {
      if (this.recorded === this.values.length) {
        const grown = new Int32Array(this.values.length * 2);
        grown.set(this.values);
        this.values = grown;
      }
      this.values[this.recorded++] = v;
    }
    return v;
  }
}

/** One pass over the positions: total nodes, milliseconds, and the node count of each position. */
export interface Pass {
  nodes: number;
  ms: number;
  perPosition: number[];
}

/** Searches each FEN to `depth` in `mode`, after one clear at the start as `bench` does. */
export function searchPass(
  searcher: ReplayingSearcher,
  fens: readonly string[],
  depth: number,
  mode: Mode,
  rule: string,
): Pass {
  searcher.begin(mode);
  const options = { ...DEFAULT_SEARCH_OPTIONS, rules: ruleConfigFrom({ ...DEFAULT_RULES, repetitionRule: rule }) };
  const io = { signals: new Int32Array(new SharedArrayBuffer(8)), info() {}, text() {}, silent: true };
  const perPosition: number[] = [];
  let ms = 0;
  searcher.clear();
  for (const fen of fens) {
    const pos = new Position(fen);
    const t0 = performance.now();
    const r = searcher.search(pos, { depth, startTime: t0 }, options, io);
    ms += performance.now() - t0;
    perPosition.push(r.nodes);
  }
  return { nodes: perPosition.reduce((a, b) => a + b, 0), ms, perPosition };
}

/** The evaluation to measure: none (classical), the network in `file`, or the embedded one when `file` is empty. */
function network(classical: boolean, file: string): EvalNetwork | null {
  if (classical) return null;
  const net = file ? loadEvalNetwork(file) : loadEmbeddedNetwork();
  if (!net) exitWithError('free-eval', 'no embedded network in this build');
  if (!net.ok) exitWithError('free-eval', net.error.message);
  return net.value;
}

async function main(): Promise<void> {
  const cl = scriptCommandLine(
    process.argv.slice(2),
    commandSpec({
      name: 'free-eval',
      usage: USAGE,
      options: {
        net: { type: 'string' },
        classical: { type: 'boolean' },
        depth: { type: 'string' },
        rounds: { type: 'string' },
        hash: { type: 'string' },
        rule: { type: 'string' },
        native: { type: 'string' },
        json: { type: 'boolean' },
      },
      positionals: { min: 0, max: 0 },
    }),
  );
  const netFile = cl.string('net', '');
  if (cl.flag('classical') && netFile)
    exitWithError('free-eval', `--net and --classical exclude each other\n${USAGE}`, 2);
  const depth = cl.integer('depth', 11, { min: 1, max: 30 });
  const rounds = cl.integer('rounds', 2, { min: 1, max: 50 });
  const hash = cl.integer('hash', 16, { min: 1, max: 4096 });
  const rule = cl.string('rule', DEFAULT_RULES.repetitionRule);
  if (!(REPETITION_RULES as readonly string[]).includes(rule))
    exitWithError('free-eval', `--rule: unknown rule '${rule}'\n${USAGE}`, 2);
  const nativePath = cl.string('native', '');
  if (nativePath && !netFile)
    exitWithError('free-eval', `--native needs --net (the same network for both)\n${USAGE}`, 2);
  if (nativePath && !existsSync(nativePath)) exitWithError('free-eval', `${nativePath} does not exist`);
  const nativeInput = benchInput(resolve(netFile), hash, depth);
  const fens = BENCH_FENS;
  const searcher = new ReplayingSearcher(hash);
  searcher.setNetwork(network(cl.flag('classical'), netFile));
  let nodes = 0;
  let evaluations = 0;
  // A shallower pass first, not counted, so that the first plain pass does not
  // also pay for compiling the search.
  searchPass(searcher, fens, Math.max(1, depth - 2), 'plain', rule);
  const nps = await repeat(rounds, async (round) => {
    const plain = searchPass(searcher, fens, depth, 'plain', rule);
    const record = searchPass(searcher, fens, depth, 'record', rule);
    const replay = searchPass(searcher, fens, depth, 'replay', rule);
    const { recorded, replayed } = searcher.counts();
    const same = plain.perPosition.every((n, i) => n === record.perPosition[i] && n === replay.perPosition[i]);
    if (!same || recorded !== replayed)
      exitWithError('free-eval', 'the replay did not search the same trees (the search is not deterministic here)');
    nodes = plain.nodes;
    evaluations = recorded;
    const sample = {
      plain: Math.round((plain.nodes * 1000) / plain.ms),
      replay: Math.round((replay.nodes * 1000) / replay.ms),
      native: 0,
    };
    let nativeText = '';
    if (nativePath) {
      const run = await runBench(`"${resolve(nativePath)}"`, nativeInput);
      if (run.nodes !== plain.nodes) nativeText = `; native ${run.nps} nodes/s, other trees (${run.nodes} nodes)`;
      else nativeText = `; native ${run.nps} nodes/s (the same trees)`;
      sample.native = run.nps;
    }
    if (!cl.flag('json'))
      console.log(
        `round ${round + 1}: plain ${Math.round(plain.ms)} ms, ${sample.plain} nodes/s; ` +
          `replayed evaluation ${Math.round(replay.ms)} ms, ${sample.replay} nodes/s${nativeText}`,
      );
    return sample;
  });
  const plainNps = medianOf(nps, (s) => s.plain);
  const replayNps = medianOf(nps, (s) => s.replay);
  const nativeNps = nativePath ? medianOf(nps, (s) => s.native) : null;
  const ratio = (x: number): number | null => (nativeNps ? Math.round((x / nativeNps) * 1000) / 1000 : null);
  const summary = {
    evaluation: searcher.evaluationName(),
    depth,
    hash,
    rule,
    rounds,
    nodes,
    evaluations,
    plainNps,
    replayNps,
    speedup: Math.round((replayNps / plainNps) * 1000) / 1000,
    nativeNps,
    plainToNative: ratio(plainNps),
    replayToNative: ratio(replayNps),
  };
  if (cl.flag('json')) console.log(JSON.stringify(summary, null, 2));
  else {
    console.log(`${summary.evaluation}; ${nodes} nodes, ${evaluations} evaluations per pass (the same trees)`);
    console.log(`median nodes/s: plain ${summary.plainNps}, evaluation replayed ${summary.replayNps}`);
    console.log(
      `a free evaluation would make this search x${summary.speedup.toFixed(3)} faster ` +
        `(the evaluation is ${(100 * (1 - 1 / summary.speedup)).toFixed(1)}% of its time)`,
    );
    if (nativeNps)
      console.log(
        `native median ${nativeNps} nodes/s: Kirin ${summary.plainToNative?.toFixed(3)}x of it, ` +
          `with the evaluation replayed ${summary.replayToNative?.toFixed(3)}x`,
      );
  }
}

if (isMain(import.meta.url)) await main();
