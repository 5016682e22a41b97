import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTemporaryDirectories } from './fs-fixture';

const child = join(import.meta.dirname, 'shared-store-child.mjs');

function runChild(root: string, snapshots: string, rounds: number): Promise<string[]> {
  const running = spawn(process.execPath, [child, root, snapshots, String(rounds)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  running.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => {
    running.once('error', reject);
    running.once('exit', (code) => (code === 0 ? resolve(out.split('\n').filter(Boolean)) : reject(new Error(`child exited with ${code}: ${out}`))));
  });
}

describe('a snapshot store shared by two processes', () => {
  const temporary = useTemporaryDirectories();

  it('garbage collection in one process never removes a blob a checkpoint of the other names: every snapshot of both checks out whole', async () => {
    await stat(join(import.meta.dirname, '../dist/index.js')); // The children run the built package (turbo builds before test).
    const dir = await temporary('shared');
    const snapshots = join(dir, 'snapshots');
    const rounds = 15;
    const [first, second] = await Promise.all([runChild(join(dir, 'one'), snapshots, rounds), runChild(join(dir, 'two'), snapshots, rounds)]);
    expect([...first, ...second].filter((line) => !line.startsWith('ok '))).toEqual([]);
    expect(first).toHaveLength(rounds);
    expect(second).toHaveLength(rounds);
  }, 180_000);
});
