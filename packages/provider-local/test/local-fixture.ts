import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { ProviderBackend } from '@runtimectl/core';
import { createLocalProvider, type LocalProvider, type LocalProviderSettings } from '../src/index';

/** Backends `createBackend` made, released after the test so no workspace sandbox outlives it. */
const createdBackends: { provider: LocalProvider; request: { backendId: string; resource: ProviderBackend['resource'] } }[] = [];

/** Temporary directories made by a test, removed after it (after releasing every backend it created). */
export function useTemporaryDirectories(): (label: string) => Promise<string> {
  const made: string[] = [];
  afterEach(async () => {
    for (const { provider, request } of createdBackends.splice(0)) await provider.release(request).catch(() => undefined);
    for (const directory of made.splice(0)) await rm(directory, { recursive: true, force: true });
  });
  return async (label) => {
    const directory = await mkdtemp(join(tmpdir(), `runtimectl-local-${label}-`));
    made.push(directory);
    return directory;
  };
}

export const newBackendId = () => `bkd_${randomBytes(16).toString('hex')}`;

export async function createBackend(
  provider: LocalProvider,
  backendId = newBackendId(),
): Promise<{ backend: ProviderBackend; request: { backendId: string; resource: ProviderBackend['resource'] }; directory: string }> {
  const backend = await provider.create({ backendId, runtimeId: 'local-test', options: {}, labels: {} });
  const request = { backendId, resource: backend.resource };
  createdBackends.push({ provider, request });
  // The workspace's host directory; `backend.workspaceRoot` is where its commands see it.
  return { backend, request, directory: await provider.workspaceDirectory(backend.resource) };
}

export async function localProvider(
  temporary: (label: string) => Promise<string>,
  settings: Partial<LocalProviderSettings> = {},
): Promise<{ provider: LocalProvider; root: string }> {
  const root = await temporary('root');
  return { provider: createLocalProvider({ root, ...settings }), root };
}

/** Whether `pid` is a running process (a zombie does not count). Linux /proc. */
export async function isRunning(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return !['Z', 'X'].includes(stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3));
  } catch {
    return false;
  }
}

export async function eventually(check: () => Promise<boolean>, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export const utf8 = (value: string) => new Uint8Array(Buffer.from(value));
export const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

/** Names of the workspace directories under `root` (the provider's own bookkeeping starts with a dot). */
export async function workspacesIn(root: string): Promise<string[]> {
  return (await readdir(root)).filter((name) => !name.startsWith('.')).sort();
}

/** A number no other process's command line will hold: `sleep <it>` marks a process to find from the host. */
export const uniqueSleep = () => `${300_000 + Math.floor(Math.random() * 600_000)}.${Math.floor(Math.random() * 1000)}`;

/** Host pids of running processes whose command line is exactly `sleep <seconds>` (they may run in a namespace). */
export async function sleepersOf(seconds: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline === `sleep\0${seconds}\0` && (await isRunning(Number(entry)))) pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}
