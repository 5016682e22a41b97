import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SandboxStore } from '../src/sandbox/sandbox-store.js';

// E2B lists, connects to and kills a sandbox once its create has made it; before, nobody can
// name it. The emulator registered a sandbox before copying its seed (a snapshot's tree, slow
// under load), so a listing during the copy showed it and a kill could overlap its create.
describe('a sandbox being created', () => {
  const roots: string[] = [];
  afterEach(async () => {
    await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
  });

  it('is neither listed nor found until its create is done, but counts against the concurrency limit', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'e2b-creation-'));
    roots.push(root);
    await mkdir(path.join(root, 'sandboxes'), { recursive: true });
    const sandboxes = new SandboxStore(root);
    const creating = sandboxes.create({ templateId: 'base', timeoutSeconds: 60 });
    expect(sandboxes.all()).toEqual([]);
    expect(sandboxes.runningCount()).toBe(1);
    const record = await creating;
    expect(sandboxes.all().map((sandbox) => sandbox.sandboxId)).toEqual([record.sandboxId]);
    expect(sandboxes.get(record.sandboxId)).toBe(record);
    expect(sandboxes.runningCount()).toBe(1);
    await sandboxes.killAll();
  });
});
