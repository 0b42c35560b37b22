#!/usr/bin/env node
// Kirin xiangqi engine: UCI on stdin/stdout. See README.md.
import { main } from '../dist/cli.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`kirin: ${err && err.stack ? err.stack : err}\n`);
    process.exitCode = 1;
  },
);
