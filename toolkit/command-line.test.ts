import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  commandSpec,
  integerOption,
  nameValueOption,
  nameValueOptions,
  numberOption,
  readCommandLine,
  reportCommandLine,
} from './command-line.js';

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
