// Preloaded into every file of the unit level (scripts/run-tests.ts runs
// `node --import dist/scripts/unit-guard.js --test ...`): a unit test starts no
// process, listens on no socket and so launches no browser or server. Each way
// to start a process (node:child_process) and Server.listen (node:net, under
// every HTTP server) throws an error that says where such a test belongs.
// Worker threads, the engine's own, are allowed.

import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

const WHERE =
  'a unit test (*.test.ts) starts no process, server or browser: name the file *.integration.test.ts ' +
  '(processes, servers) or *.browser.test.ts (Chromium); scripts/run-tests.ts';

function refuse(what: string): never {
  throw new Error(`${what}: ${WHERE}`);
}

const cp = childProcess as unknown as Record<string, unknown>;
for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'])
  cp[name] = (command?: unknown): never => refuse(`child_process.${name}(${JSON.stringify(command ?? '')})`);
net.Server.prototype.listen = function listen(): never {
  return refuse('a server listening (net.Server.listen)');
};
// Named imports of node:child_process (import { spawn } from ...) see the refusals too.
syncBuiltinESMExports();
