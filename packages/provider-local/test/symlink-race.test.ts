import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RuntimectlError, type ProviderBackend } from '@runtimectl/core';
import { createBackend, localProvider, text, useTemporaryDirectories, utf8 } from './local-fixture';

// Issue 18 item 5: a parent directory swapped for a symbolic link to an outside directory
// between the jail's check and the operation was followed. Another process swaps `dir` and
// `.tmp` for links to `outside` in a tight loop while every file operation runs against paths
// under them; not one may read, list, stat or create anything outside.
const RACE_MS = 1_500;
const CONCURRENCY = 4;
const SECRET = `outside secret ${randomBytes(8).toString('hex')}`;
const ONLY_OUTSIDE = 'only-outside.txt';

/**
 * A separate process (truly concurrent with the daemon's thread pool) that swaps each of
 * `names` in `workspace` for a symlink to `outside` and back by renames (so the name is almost
 * never missing; a directory an operation re-created meanwhile is moved aside), as fast as it
 * can, until killed (or after 20 s, so a crashed test leaves nothing behind). Prints the swap
 * count on SIGTERM.
 */
function startSwapper(workspace: string, names: string[], outside: string): ChildProcess {
  const script = `
    const fs = require('node:fs');
    const [workspace, outside, ...names] = process.argv.slice(1);
    let swaps = 0;
    process.on('SIGTERM', () => { process.stdout.write(String(swaps)); process.exit(0); });
    const quietly = (step) => { try { step(); } catch {} };
    for (const name of names) fs.symlinkSync(outside, workspace + '/' + name + '.link');
    const stopAt = Date.now() + 20000;
    process.stdout.write('ready\\n');
    setImmediate(function loop() {
      for (let i = 0; i < 200; i += 1) {
        for (const name of names) {
          const path = workspace + '/' + name;
          quietly(() => fs.renameSync(path, path + '.real'));
          quietly(() => fs.renameSync(path + '.link', path));
          quietly(() => fs.renameSync(path, fs.lstatSync(path).isSymbolicLink() ? path + '.link' : path + '.stray-' + swaps));
          quietly(() => fs.renameSync(path + '.real', path));
        }
        swaps += 1;
      }
      if (Date.now() < stopAt) setImmediate(loop);
    });`;
  return spawn(process.execPath, ['-e', script, workspace, outside, ...names], { stdio: ['ignore', 'pipe', 'inherit'] });
}

async function stopSwapper(swapper: ChildProcess): Promise<number> {
  let output = '';
  swapper.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => swapper.once('exit', resolve));
  swapper.kill('SIGTERM');
  await exited;
  return Number(output.replace('ready\n', '')) || 0;
}

type Outcome = 'inside' | 'refused' | 'escaped';

/** Every operation the issue names, aimed under a swapped directory; says whether it escaped. */
function attacks(backend: ProviderBackend): Record<string, (i: number) => Promise<Outcome>> {
  return {
    read: async () => (text(await backend.readBytes('dir/secret.txt')).includes(SECRET) ? 'escaped' : 'inside'),
    export: async () => {
      const { content } = await backend.export('dir/secret.txt');
      const chunks: Buffer[] = [];
      for await (const chunk of content) chunks.push(Buffer.from(chunk as Uint8Array));
      return Buffer.concat(chunks).toString().includes(SECRET) ? 'escaped' : 'inside';
    },
    stat: async () => ((await backend.stat(`dir/${ONLY_OUTSIDE}`)).exists ? 'escaped' : 'inside'),
    write: async (i) => (await backend.writeBytes(`dir/written-${i}.txt`, utf8('x')), 'inside'),
    mkdir: async (i) => (await backend.createDirAll(`dir/made-${i}/sub`), 'inside'),
    temp: async () => (await backend.tempPath({ kind: 'file' }), 'inside'),
    grep: async () => {
      const found = await backend.grep({ query: 'outside secret', baseDir: 'dir', mode: 'files_with_matches', limit: 10 });
      return JSON.stringify(found).includes('secret.txt') ? 'escaped' : 'inside';
    },
    glob: async () => (JSON.stringify(await backend.glob({ pattern: '**', baseDir: 'dir', limit: 1000 })).includes(ONLY_OUTSIDE) ? 'escaped' : 'inside'),
    exec: async () => {
      const run = await backend.exec({ command: `cat ${ONLY_OUTSIDE} 2>/dev/null; pwd`, cwd: 'dir', maxOutputBytes: 4096 });
      return text(run.stdout).includes('outside') ? 'escaped' : 'inside';
    },
  };
}

describe('local provider path jail under a symlink-swap race', () => {
  const temporary = useTemporaryDirectories();

  it('a parent directory swapped for a symlink to outside is never followed: 0 escapes', async () => {
    const outside = await temporary('outside');
    await writeFile(join(outside, 'secret.txt'), SECRET);
    await writeFile(join(outside, ONLY_OUTSIDE), 'outside only');
    const { provider } = await localProvider(temporary);
    const { backend, directory } = await createBackend(provider);
    await backend.writeBytes('dir/secret.txt', utf8('inside'));
    await backend.createDirAll('.tmp');

    const counts: Record<string, Record<Outcome | 'attempts', number>> = {};
    const swapper = startSwapper(directory, ['dir', '.tmp'], outside);
    await new Promise((resolve) => swapper.stdout!.once('data', resolve));
    const deadline = Date.now() + RACE_MS;
    const operations = Object.entries(attacks(backend));
    let swaps: number;
    try {
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async (_, worker) => {
          // Until the deadline, and on a machine too loaded to get far by then, until each operation ran three times.
          const enough = () => Object.values(counts).reduce((sum, count) => sum + count.attempts, 0) >= 3 * operations.length;
          for (let i = worker; Date.now() < deadline || !enough(); i += CONCURRENCY) {
            const [name, attack] = operations[i % operations.length]!;
            const count = (counts[name] ??= { attempts: 0, inside: 0, refused: 0, escaped: 0 });
            count.attempts += 1;
            try {
              count[await attack(i)] += 1;
            } catch (error) {
              // Refused (invalid_request), not found, or a directory made by mkdir -p where the
              // link was: all fine. Anything that is not runtimectl's own error is a bug.
              expect(RuntimectlError.isInstance(error), String(error)).toBe(true);
              count.refused += 1;
            }
          }
        }),
      );
    } finally {
      swaps = await stopSwapper(swapper);
    }

    const outsideNow = (await readdir(outside)).sort();
    const created = outsideNow.filter((name) => name !== 'secret.txt' && name !== ONLY_OUTSIDE);
    const escapes = Object.values(counts).reduce((sum, count) => sum + count.escaped, 0);
    const summary = JSON.stringify({ swaps, created, counts });
    expect(swaps, summary).toBeGreaterThan(0);
    expect(Object.values(counts).reduce((sum, count) => sum + count.refused, 0), `the race was live: ${summary}`).toBeGreaterThan(0);
    expect(Object.values(counts).reduce((sum, count) => sum + count.attempts, 0), summary).toBeGreaterThanOrEqual(3 * operations.length);
    expect(escapes, `outside read, listed or stat'ed: ${summary}`).toBe(0);
    expect(created, `created outside: ${summary}`).toEqual([]);
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe(SECRET);
  });

  it('inside symlinks, and .. in their targets, are still followed as the kernel would; a missing search base finds nothing', async () => {
    const { provider } = await localProvider(temporary);
    const { backend, directory } = await createBackend(provider);
    await backend.writeBytes('real/deeper/data.txt', utf8('found'));
    await mkdir(join(directory, 'links'));
    await symlink('../real/deeper', join(directory, 'links', 'relative'));
    // An absolute target as a command would write it: under the workspace's path in its sandbox.
    await symlink(join(backend.workspaceRoot, 'real'), join(directory, 'links', 'absolute'));
    await symlink('relative/..', join(directory, 'links', 'up-through-link'));
    expect(text(await backend.readBytes('links/relative/data.txt'))).toBe('found');
    expect(text(await backend.readBytes('links/absolute/deeper/data.txt'))).toBe('found');
    // `..` after a link is the parent of the link's target (`real`), as the kernel resolves it.
    expect(text(await backend.readBytes('links/up-through-link/deeper/data.txt'))).toBe('found');
    expect((await backend.stat('links/up-through-link')).kind).toBe('directory');
    await backend.writeBytes('links/relative/new.txt', utf8('through a relative link'));
    expect(text(await backend.readBytes('real/deeper/new.txt'))).toBe('through a relative link');
    const run = await backend.exec({ command: 'cat data.txt', cwd: 'links/relative', maxOutputBytes: 100 });
    expect(text(run.stdout)).toBe('found');
    expect(await backend.glob({ pattern: '**', baseDir: 'links/absolute', limit: 10 })).toEqual({
      kind: 'paths',
      paths: ['real/deeper/data.txt', 'real/deeper/new.txt'],
      truncated: false,
    });
    expect(await backend.glob({ pattern: '**', baseDir: 'missing/deeper', limit: 10 })).toEqual({ kind: 'paths', paths: [], truncated: false });
  });
});
