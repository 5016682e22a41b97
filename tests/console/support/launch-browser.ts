import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_PATH } from './chromium-path';

/**
 * The flags of toolchain.md §8. Without the background-networking ones Chromium floods the closed
 * network with refused connections. No `--user-data-dir`: playwright refuses it in `args`, and
 * `chromium.launch` already gives every browser a fresh temporary profile (removed on close).
 */
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Debian's Chromium, headless, with a fresh profile. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ARGS, timeout: 30_000 });
}
