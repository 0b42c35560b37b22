#!/usr/bin/env node
// Kirin xiangqi engine: UCI on stdin/stdout. See README.md.
// `kirin match ...` runs the match runner (and `kirin datagen`, `kirin tune` the
// training-data generator and the evaluation tuner, `kirin cluster` the job queue
// that runs them on many machines, `kirin train` the network trainer, `kirin book`
// the opening book builder, `kirin puzzles` the puzzle finder, `kirin data`
// the data files' statistics and converter), a development tool built into
// dist/commands/ from a repository checkout; the published package does not
// contain it.
import { existsSync } from 'node:fs';

const argv = process.argv.slice(2);

// Output to a reader that has gone away (`kirin convert FILE | head -1`) ends the
// process quietly with code 0, as Unix tools do, instead of an EPIPE stack trace.
process.stdout.on('error', (e) => {
  if (e && (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED')) process.exit(0);
  throw e;
});

async function run() {
  if (argv[0] === 'match') {
    const cli = new URL('../dist/commands/match/cli.js', import.meta.url);
    if (!existsSync(cli)) {
      process.stderr.write(
        'kirin: `kirin match` is a development tool: run it from a repository checkout after `npm run build`\n',
      );
      return 2;
    }
    const { runMatchCli } = await import(cli.href);
    return runMatchCli(argv.slice(1));
  }
  const tool = {
    datagen: ['datagen', 'runDatagenCli'],
    tune: ['tune', 'runTuneCli'],
    cluster: ['cluster', 'runClusterCli'],
    train: ['train', 'runTrainCli'],
    data: ['data', 'runDataCli'],
    book: ['book', 'runBookCli'],
    puzzles: ['puzzles', 'runPuzzlesCli'],
  }[argv[0]];
  if (tool) {
    const cli = new URL(`../dist/commands/${tool[0]}/cli.js`, import.meta.url);
    if (!existsSync(cli)) {
      process.stderr.write(
        `kirin: \`kirin ${argv[0]}\` is a development tool: run it from a repository checkout after \`npm run build\`\n`,
      );
      return 2;
    }
    const mod = await import(cli.href);
    return mod[tool[1]](argv.slice(1));
  }
  // The search thread starts first: it loads its modules and builds its tables
  // on the other core while this thread loads the engine (readyok comes sooner).
  // `kirin convert`, `kirin opening`, `kirin explorer` and `kirin judge` search nothing.
  if (argv[0] !== 'convert' && argv[0] !== 'opening' && argv[0] !== 'explorer' && argv[0] !== 'judge') {
    const { prestartSearchThread } = await import('../dist/src/engine/prestart.js');
    prestartSearchThread();
  }
  const { main } = await import('../dist/src/main.js');
  return main(argv);
}

run().then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`kirin: ${err && err.stack ? err.stack : err}\n`);
    process.exitCode = 1;
  },
);
