import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import {
  commandSpec,
  integerOption,
  isMain,
  median,
  nameValueOption,
  nameValueOptions,
  numberOption,
  readCommandLine,
  reportCommandLine,
  repoPath,
  repoRoot,
} from './lib.js';

const SPEC = commandSpec({
  name: 't',
  usage: 'usage: t [--runs N] [--json] [--engine CMD]... [--sprt K=V...] [--debug [FILE]] [FILE]',
  options: {
    runs: { type: 'string' },
    json: { type: 'boolean' },
    engine: { type: 'string', multiple: true },
    sprt: { type: 'string' },
    debug: { type: 'boolean' },
  },
  positionals: { max: 1 },
  groups: ['sprt', 'debug'],
});

const refused = (argv: string[]): string => {
  const r = readCommandLine(argv, SPEC);
  assert.ok(!r.ok && r.error.code === 'arguments', `${argv.join(' ')} was accepted`);
  return r.error.message;
};

test('readCommandLine: values, repeated options, positionals and groups', () => {
  const r = readCommandLine(
    [
      '--runs',
      '5',
      '--json',
      '--engine',
      'node a.js',
      '--engine=b',
      'file.txt',
      '--sprt',
      'elo0=0',
      'elo1=5',
      '--debug',
    ],
    SPEC,
  );
  assert.ok(r.ok);
  assert.equal(r.value.values.runs, '5');
  assert.equal(r.value.values.json, true);
  assert.deepEqual(r.value.values.engine, ['node a.js', 'b']);
  assert.deepEqual(r.value.positionals, ['file.txt']);
  assert.deepEqual(r.value.groups, { sprt: ['elo0=0', 'elo1=5'], debug: [] });
  const d = readCommandLine(['--debug', 'e.log'], SPEC);
  assert.ok(d.ok && d.value.groups.debug?.[0] === 'e.log' && d.value.positionals.length === 0);
  const empty = readCommandLine([], SPEC);
  assert.ok(empty.ok);
  assert.deepEqual([Object.keys(empty.value.values), empty.value.positionals, empty.value.groups], [[], [], {}]);
});

test('readCommandLine: --help wins anywhere before --; unknown options, missing values and stray words are refused', () => {
  for (const argv of [['--help'], ['-h'], ['--runs', 'x', '--bogus', '--help']]) {
    const r = readCommandLine(argv, SPEC);
    assert.ok(!r.ok && r.error.code === 'help' && r.error.message === SPEC.usage, argv.join(' '));
  }
  assert.equal(refused(['--gmaes', '3']), "Unknown option '--gmaes'");
  assert.match(refused(['--runs']), /Option '--runs <value>' argument missing/);
  assert.match(refused(['--runs', '--json']), /argument is ambiguous/);
  assert.match(refused(['--json=yes']), /does not take an argument/);
  assert.equal(refused(['a', 'b']), "unexpected argument 'b'");
  const noPositionals = commandSpec({ name: 'u', usage: 'usage: u', options: {} });
  const r = readCommandLine(['stray'], noPositionals);
  assert.ok(!r.ok && r.error.message === "Unexpected argument 'stray'");
  const needsTwo = commandSpec({ name: 'v', usage: 'usage: v A B', options: {}, positionals: { min: 2, max: 2 } });
  const one = readCommandLine(['a'], needsTwo);
  assert.ok(!one.ok && one.error.message === '1 argument missing');
  // A value that starts with '-' is written --name=value; a negative number may follow its option as a word of its own,
  // and the tool's check of the number says what is wrong with it (not util.parseArgs's "ambiguous").
  for (const argv of [['--runs=-3'], ['--runs', '-3'], ['--runs', '-.5']]) {
    const neg = readCommandLine(argv, SPEC);
    assert.ok(neg.ok && neg.value.values.runs === argv.at(-1)!.replace('--runs=', ''), argv.join(' '));
    assert.ok(neg.ok && neg.value.positionals.length === 0);
  }
  const tooLow = readCommandLine(['--runs', '-5'], SPEC);
  assert.ok(tooLow.ok);
  const checked = integerOption(tooLow.value.values, 'runs', 1, { min: 1 });
  assert.ok(!checked.ok && checked.error.message === '--runs -5: below 1');
  assert.match(refused(['--runs', '-x']), /argument is ambiguous/, 'only a number is taken for a value');
});

test('reportCommandLine: the usage on stdout for help (0), the message and usage on stderr otherwise (2)', () => {
  let out = '',
    err = '';
  const o = { write: (s: string) => (out += s) };
  const e = { write: (s: string) => (err += s) };
  assert.equal(reportCommandLine(SPEC, { code: 'help', message: '' }, o, e), 0);
  assert.equal(out, SPEC.usage + '\n');
  assert.equal(reportCommandLine(SPEC, { code: 'arguments', message: "Unknown option '--x'" }, o, e), 2);
  assert.equal(err, `t: Unknown option '--x'\n${SPEC.usage}\n`);
});

test('integerOption and numberOption: the default when absent, else a checked value', () => {
  assert.deepEqual(integerOption({}, 'games', 7), { ok: true, value: 7 });
  assert.deepEqual(integerOption({ games: '12' }, 'games', 7, { min: 1 }), { ok: true, value: 12 });
  assert.deepEqual(integerOption({ games: ['1', '3'] }, 'games', 7), { ok: true, value: 3 }, 'the last of several');
  for (const [text, message] of [
    ['1.5', '--games 1.5: not an integer'],
    ['x', '--games x: not an integer'],
    ['0', '--games 0: below 1'],
    ['1001', '--games 1001: above 1000'],
  ]) {
    const r = integerOption({ games: text }, 'games', 7, { min: 1, max: 1000 });
    assert.ok(!r.ok && r.error.code === 'arguments' && r.error.message === message, text);
  }
  assert.deepEqual(numberOption({ lr: '0.25' }, 'lr', 1), { ok: true, value: 0.25 });
  for (const text of ['', 'abc', 'Infinity', 'NaN']) assert.equal(numberOption({ lr: text }, 'lr', 1).ok, false, text);
});

test('nameValueOption(s): NAME=VALUE pairs, trimmed, in order; a text without a name or an = is refused', () => {
  assert.deepEqual(nameValueOption('option', ' Hash = 64 '), { ok: true, value: ['Hash', '64'] });
  assert.deepEqual(nameValueOption('option', 'EvalFile=a=b.nnue'), { ok: true, value: ['EvalFile', 'a=b.nnue'] });
  assert.deepEqual(
    nameValueOption('option', 'Ponder='),
    { ok: true, value: ['Ponder', ''] },
    'an empty value is a value',
  );
  for (const text of ['Hash', '=64', ' = 64', '']) {
    const r = nameValueOption('engine-option', text);
    assert.ok(!r.ok && r.error.message === `--engine-option needs NAME=VALUE, got '${text}'`, text);
  }
  assert.deepEqual(nameValueOptions({}, 'option'), { ok: true, value: [] });
  assert.deepEqual(nameValueOptions({ option: ['Hash=8', 'Threads=2'] }, 'option'), {
    ok: true,
    value: [
      ['Hash', '8'],
      ['Threads', '2'],
    ],
  });
  const bad = nameValueOptions({ option: ['Hash=8', 'x'] }, 'option');
  assert.ok(!bad.ok && bad.error.message === "--option needs NAME=VALUE, got 'x'");
});

test('median of repeated measurements', () => {
  assert.equal(median([7]), 7);
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  const xs = [5, 9, 1];
  median(xs);
  assert.deepEqual(xs, [5, 9, 1], 'the list is not reordered');
});

test('repoRoot and isMain', () => {
  assert.ok(existsSync(join(repoRoot(), 'package.json')));
  assert.equal(repoPath('data', 'openings'), join(repoRoot(), 'data', 'openings'));
  assert.equal(isMain(new URL('./lib.js', import.meta.url).href), false, 'lib.js is imported, not run');
  assert.equal(isMain(pathToFileURL(process.argv[1]).href), true, 'the script node was started with');
  assert.equal(isMain('data:text/javascript,0'), false);
});

// Every tool with a command line, run as a script (kirin match / datagen / tune through bin/kirin.js).
const SCRIPTS: readonly string[][] = [
  ['dist/tools/eval/selfplay.js'],
  ['dist/tools/eval/speed.js'],
  ['dist/tools/gui/check-pgn.js'],
  ['dist/tools/match/check-openings.js'],
  ['dist/tools/match/fairy-stockfish-uci.js'],
  ['dist/tools/match/fake-engine.js'],
  ['dist/tools/match/ucci-uci.js'],
  ['dist/tools/nnue/kernel-bench.js'],
  ['dist/tools/nnue/load-bench.js'],
  ['dist/tools/nnue/make-net.js'],
  ['dist/tools/nnue/native-compare.js'],
  ['dist/tools/nnue/speed.js'],
  ['dist/tools/protocol/first-move-bench.js'],
  ['dist/tools/protocol/fuzz-protocol.js'],
  ['dist/tools/protocol/soak.js'],
  ['dist/tools/protocol/uci-stress.js'],
  ['dist/tools/rules/book-to-corpus.js'],
  ['dist/tools/rules/check-case.js'],
  ['dist/tools/rules/chinese-notation.js'],
  ['dist/tools/rules/gen-computer-oracle.js'],
  ['dist/tools/rules/wxf-notation.js'],
  ['dist/tools/run-tests.js'],
  ['dist/tools/strength/elo-scale.js'],
  ['dist/tools/threads/scaling.js'],
  ['dist/tools/web/browser-speed.js'],
  ['dist/tools/web/build.js'],
  ['dist/tools/web/glyphs.js'],
  ['dist/tools/web/serve.js'],
  ['dist/tools/cluster/bench.js'],
  ['bin/kirin.js', 'match'],
  ['bin/kirin.js', 'datagen'],
  ['bin/kirin.js', 'tune'],
  ['bin/kirin.js', 'cluster', 'worker'],
  ['bin/kirin.js', 'cluster', 'sprt'],
  ['bin/kirin.js', 'cluster', 'datagen'],
  ['bin/kirin.js', 'cluster', 'analyse'],
  ['bin/kirin.js', 'cluster', 'status'],
  ['bin/kirin.js', 'cluster', 'resume'],
  ['bin/kirin.js', 'cluster', 'cancel'],
];

/** Runs a script with arguments: its exit status and output. */
function run(
  script: readonly string[],
  args: string[],
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const [file, ...sub] = script;
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [join(repoRoot(), file), ...sub, ...args],
      { encoding: 'utf8', timeout: 60000 },
      (error, stdout, stderr) => resolve({ status: error ? (error.code as number | null) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

test('every tool answers --help with its usage and refuses an unknown option before running anything', async () => {
  // A few at a time: each start loads the product.
  const queue = [...SCRIPTS];
  const check = async (): Promise<void> => {
    for (let script = queue.shift(); script; script = queue.shift()) {
      const help = await run(script, ['--help']);
      assert.equal(help.status, 0, `${script.join(' ')} --help: ${help.stderr}`);
      assert.match(help.stdout, /^usage: /i, script.join(' '));
      const typo = await run(script, ['--gmaes', '3']);
      assert.equal(typo.status, 2, `${script.join(' ')} --gmaes: ${typo.stderr}`);
      assert.match(typo.stderr, /: Unknown option '--gmaes'\nusage: /i, script.join(' '));
    }
  };
  await Promise.all([check(), check(), check(), check()]);
});
