#!/usr/bin/env node
// CI's check of the README's other command: `npm start` on a free port with a temporary state
// directory must print its start banner, answer GET /api/v1/health, serve the web console, and exit 0 on SIGTERM sent to
// npm (as a process manager would), leaving no daemon behind. Plain Node, no dependencies.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bannerTimeoutMs = 5 * 60_000; // npm start may still install and build on a cold machine
const exitTimeoutMs = 30_000;

function fail(message) {
  console.error(`[start-check] FAILED: ${message}`);
  process.exitCode = 1;
}

function waitForBanner(child) {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`no start banner within ${bannerTimeoutMs / 1000} s`)), bannerTimeoutMs);
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      seen += chunk;
      const match = /runtimed \S+ listening on (http:\/\/\S+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited (${code ?? signal}) before its start banner`));
    });
  });
}

function waitForExit(child) {
  return new Promise((resolve, reject) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve({ code: child.exitCode, signal: child.signalCode });
    const timer = setTimeout(() => reject(new Error(`npm start did not exit within ${exitTimeoutMs / 1000} s of SIGTERM`)), exitTimeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}

async function answers(url) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    return { status: response.status, body: await response.json() };
  } catch {
    return undefined;
  }
}

const stateDir = mkdtempSync(join(tmpdir(), 'runtimectl-start-check-'));
// detached: its own process group, so a stray daemon can be killed whole if the check fails.
const child = spawn('npm', ['start', '--', '--port', '0', '--state-dir', stateDir], {
  cwd: root,
  env: process.env,
  stdio: ['ignore', 'pipe', 'inherit'],
  detached: true,
});
child.stdout.setEncoding('utf8');
try {
  const baseUrl = await waitForBanner(child);
  const health = await answers(`${baseUrl}/api/v1/health`);
  if (health?.status !== 200 || health.body?.status !== 'ok') fail(`GET /api/v1/health answered ${JSON.stringify(health)}`);
  else console.log(`[start-check] GET ${baseUrl}/api/v1/health → 200 ${JSON.stringify(health.body)}`);
  const page = await fetch(`${baseUrl}/console/`, { signal: AbortSignal.timeout(5_000) }).catch(() => undefined);
  const html = page?.status === 200 ? await page.text() : '';
  if (!html.includes('<title>')) fail(`GET /console/ answered ${page?.status ?? 'nothing'}: the web console is not served`);
  else console.log(`[start-check] GET ${baseUrl}/console/ → 200 (the web console)`);
  child.kill('SIGTERM');
  const { code, signal } = await waitForExit(child);
  if (code !== 0) fail(`npm start exited with ${code ?? signal} after SIGTERM, not 0`);
  else if (await answers(`${baseUrl}/api/v1/health`)) fail('the daemon still answers after npm start exited');
  else console.log('[start-check] SIGTERM → npm start exited 0 and the daemon is gone');
} catch (error) {
  fail(error.message);
} finally {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // the group is already gone: the expected case
  }
  rmSync(stateDir, { recursive: true, force: true });
}
