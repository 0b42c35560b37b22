// Headless Chromium for the browser test and the speed script: Debian's
// /usr/bin/chromium driven by playwright-core (nothing is downloaded; every
// launch gets a fresh temporary profile).

import type { Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // A headless page is never in the background, but a measurement must not depend on it.
  '--disable-renderer-backgrounding',
  '--disable-background-timer-throttling',
];

/** Starts headless Chromium, with `extraArgs` after CHROMIUM_ARGS (throws when it cannot start). */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...extraArgs], timeout: 30_000 });
}
