import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { probeNamespaceSandbox } from '@runtimectl/namespace-sandbox';
import { afterEach, describe, expect, it } from 'vitest';
import { SandboxStore } from '../src/sandbox/sandbox-store.js';
import { eventually } from './support/eventually.js';

// A real E2B sandbox's envd is up when create answers; the emulator's namespace sandbox took
// 0.5–3 s to start on a sandbox's first command, which a caller with a short request timeout
// saw as a provider timeout. With namespaces in use, create starts it.
const probeDirectory = await mkdtemp(path.join(os.tmpdir(), 'e2b-warm-probe-'));
const namespaces = (await probeNamespaceSandbox(probeDirectory, { network: 'host' })).available;
await rm(probeDirectory, { recursive: true, force: true });

describe('sandbox namespaces start with their sandbox', () => {
  const roots: string[] = [];
  afterEach(async () => {
    await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
  });

  async function store(warm: boolean): Promise<SandboxStore> {
    const root = await mkdtemp(path.join(os.tmpdir(), 'e2b-warm-'));
    roots.push(root);
    await mkdir(path.join(root, 'sandboxes'), { recursive: true });
    return new SandboxStore(root, Date.now, warm);
  }

  it('a created sandbox has its namespace starting before any command when namespaces are in use', async () => {
    const sandboxes = await store(true);
    const record = await sandboxes.create({ templateId: 'base', timeoutSeconds: 60 });
    expect(record.namespace.started).toBe(true);
    await sandboxes.killAll();
    expect(record.namespace.started).toBe(false);
  });

  it.skipIf(!namespaces)('tells whether the namespace is still starting or ready, so a caller can wait for it before timing a command', async () => {
    const sandboxes = await store(true);
    await mkdir(path.join(roots.at(-1)!, 'namespace-root'));
    const record = await sandboxes.create({ templateId: 'base', timeoutSeconds: 60 });
    expect(record.namespace.state).toBe('starting');
    expect(await eventually(() => record.namespace.state !== 'starting', 20_000)).toBe(true);
    expect(record.namespace.state).toBe('ready');
    await sandboxes.killAll();
    expect(record.namespace.state).toBe('none');
  });

  it('without namespaces, create starts none', async () => {
    const sandboxes = await store(false);
    const record = await sandboxes.create({ templateId: 'base', timeoutSeconds: 60 });
    expect(record.namespace.started).toBe(false);
    expect(record.namespace.state).toBe('none');
    await sandboxes.killAll();
  });
});
