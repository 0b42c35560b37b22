import assert from 'node:assert/strict';
import { test } from 'node:test';
import { afterActive, bootPlan, ISOLATION_HEADERS, withIsolation, type BootFacts } from './isolation.js';

test('withIsolation adds COOP and COEP to a response and keeps its status, text, headers and body', async () => {
  const r = new Response('kirin', { status: 201, statusText: 'Made', headers: { 'Content-Type': 'text/plain' } });
  const out = withIsolation(r);
  assert.equal(out.headers.get('Cross-Origin-Opener-Policy'), 'same-origin');
  assert.equal(out.headers.get('Cross-Origin-Embedder-Policy'), 'require-corp');
  assert.equal(out.headers.get('Content-Type'), 'text/plain');
  assert.equal(out.status, 201);
  assert.equal(out.statusText, 'Made');
  assert.equal(await out.text(), 'kirin');
  assert.deepEqual(Object.keys(ISOLATION_HEADERS).sort(), [
    'Cross-Origin-Embedder-Policy',
    'Cross-Origin-Opener-Policy',
  ]);
});

test("withIsolation keeps a host's own values, and returns a response that has both as it is", () => {
  const own = new Response('x', { headers: { 'Cross-Origin-Embedder-Policy': 'credentialless' } });
  const out = withIsolation(own);
  assert.notEqual(out, own);
  assert.equal(out.headers.get('Cross-Origin-Embedder-Policy'), 'credentialless');
  assert.equal(out.headers.get('Cross-Origin-Opener-Policy'), 'same-origin');
  const both = new Response('x', { headers: { ...ISOLATION_HEADERS } });
  assert.equal(withIsolation(both), both);
});

test('withIsolation leaves a response it cannot rewrite (status 0) alone', () => {
  const error = Response.error();
  assert.equal(error.status, 0);
  assert.equal(withIsolation(error), error);
  assert.equal(error.headers.get('Cross-Origin-Opener-Policy'), null);
});

test('withIsolation keeps a response without a body (204) without one', async () => {
  const out = withIsolation(new Response(null, { status: 204 }));
  assert.equal(out.status, 204);
  assert.equal(out.headers.get('Cross-Origin-Embedder-Policy'), 'require-corp');
  assert.equal(await out.text(), '');
});

const HTTPS: BootFacts = { isolated: false, protocol: 'https:', secureContext: true, serviceWorker: true };

test('bootPlan: isolated by the host, else register the worker where the browser allows one, else why not', () => {
  assert.deepEqual(bootPlan({ ...HTTPS, isolated: true }), { kind: 'isolated' });
  assert.deepEqual(bootPlan(HTTPS), { kind: 'register' });
  // http://localhost is a secure context.
  assert.deepEqual(bootPlan({ ...HTTPS, protocol: 'http:' }), { kind: 'register' });
  assert.deepEqual(bootPlan({ ...HTTPS, protocol: 'file:' }), { kind: 'problem', problem: 'file' });
  assert.deepEqual(bootPlan({ ...HTTPS, protocol: 'http:', secureContext: false }), {
    kind: 'problem',
    problem: 'insecure',
  });
  assert.deepEqual(bootPlan({ ...HTTPS, serviceWorker: false }), { kind: 'problem', problem: 'no-service-worker' });
  // The host's headers win over everything else.
  assert.deepEqual(bootPlan({ isolated: true, protocol: 'http:', secureContext: false, serviceWorker: false }), {
    kind: 'isolated',
  });
});

test('afterActive reloads once per tab, and says why when it cannot or did in vain', () => {
  assert.deepEqual(afterActive(false), { kind: 'reload' });
  assert.deepEqual(afterActive(true), { kind: 'problem', problem: 'no-effect' });
  assert.deepEqual(afterActive(null), { kind: 'problem', problem: 'no-storage' });
});
