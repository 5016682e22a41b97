import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runProcessToEnd, startServerProcess, withinDeadline } from '../src/server-process/index';
import { startFailure } from './start-failure';

const scratch = mkdtempSync(join(tmpdir(), 'testkit-server-process-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const node = (script: string) => ({ command: process.execPath, args: ['-e', script], env: { PATH: process.env.PATH } });

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}


describe('startServerProcess', () => {
  it('resolves with the line that says the server is ready, and stops it on request', async () => {
    const server = await startServerProcess({
      server: 'echo server',
      ...node("console.log('booting'); console.log('ready on 1234'); setInterval(() => {}, 1000)"),
      readyLine: /^ready on \d+/,
      deadlineMs: 20_000,
    });
    expect(server.readyLine).toBe('ready on 1234');
    expect(server.alive()).toBe(true);
    expect(await server.stop()).toEqual({ code: null, signal: 'SIGTERM' });
    expect(server.alive()).toBe(false);
  });

  it('fails within its deadline when the ready line never comes, naming the server, the phase and its last output', async () => {
    const began = performance.now();
    const error = await startFailure(
      startServerProcess({
        server: 'a silent server',
        phase: 'listen',
        ...node("console.log('still booting'); console.error('warming up'); setInterval(() => {}, 1000)"),
        readyLine: /ready/,
        deadlineMs: 1_500,
      }),
    );
    expect(performance.now() - began).toBeLessThan(10_000);
    expect(error.server).toBe('a silent server');
    expect(error.phase).toBe('listen');
    expect(error.message).toMatch(/^a silent server did not start: no line matching \/ready\/ within 1500 ms \(phase: listen, after \d+ ms\)/);
    expect(error.message).toContain('[stdout] still booting');
    expect(error.message).toContain('[stderr] warming up');
  });

  it('kills the whole process group of a server that missed its deadline', async () => {
    const pidFile = join(scratch, 'grandchild.pid');
    const script = `const c = require('node:child_process').spawn('sleep', ['300'], { stdio: 'ignore' }); require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(c.pid)); setInterval(() => {}, 1000)`;
    await startFailure(startServerProcess({ server: 'a forking server', ...node(script), readyLine: /ready/, deadlineMs: 1_500 }));
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    await expect.poll(() => isRunning(grandchild), { timeout: 5_000 }).toBe(false);
  });

  it('reports a server that exits before it is ready with its exit code and output', async () => {
    const error = await startFailure(
      startServerProcess({ server: 'a crashing server', ...node("console.error('FATAL: port in use'); process.exit(3)"), readyLine: /ready/, deadlineMs: 20_000 }),
    );
    expect(error.reason).toBe('exited with code 3');
    expect(error.output).toContain('FATAL: port in use');
  });

  it('fails at once, instead of waiting for ever, when the program cannot be spawned', async () => {
    const notExecutable = join(scratch, 'not-executable');
    writeFileSync(notExecutable, '#!/bin/sh\necho ready\n');
    chmodSync(notExecutable, 0o644);
    const began = performance.now();
    const error = await startFailure(startServerProcess({ server: 'a server', command: notExecutable, readyLine: /ready/, deadlineMs: 60_000 }));
    expect(performance.now() - began).toBeLessThan(5_000);
    expect(error.reason).toMatch(/^could not be spawned: EACCES/);
    const missing = await startFailure(startServerProcess({ server: 'a server', command: join(scratch, 'missing'), readyLine: /ready/, deadlineMs: 60_000 }));
    expect(missing.reason).toMatch(/^could not be spawned: ENOENT/);
  });
});

describe('runProcessToEnd', () => {
  it('resolves with the output of a step that exits with code 0', async () => {
    expect(await runProcessToEnd({ server: 'db', phase: 'initdb', ...node("console.log('Success.')"), deadlineMs: 20_000 })).toContain('Success.');
  });

  it('fails a step that never exits within the deadline, and kills it', async () => {
    const error = await startFailure(runProcessToEnd({ server: 'db', phase: 'initdb', ...node("console.log('creating directories'); setInterval(() => {}, 1000)"), deadlineMs: 1_000 }));
    expect(error.message).toMatch(/^db did not start: initdb did not finish within 1000 ms \(phase: initdb/);
    expect(error.output).toContain('creating directories');
  });

  it('fails a step that exits with another code, quoting what it printed', async () => {
    const error = await startFailure(runProcessToEnd({ server: 'db', phase: 'initdb', ...node("console.error('initdb: directory exists'); process.exit(1)"), deadlineMs: 20_000 }));
    expect(error.reason).toBe('initdb exited with code 1');
    expect(error.output).toContain('initdb: directory exists');
  });
});

describe('withinDeadline', () => {
  it('passes through what an in-process step produces in time', async () => {
    expect(await withinDeadline({ server: 's', phase: 'listen', deadlineMs: 1_000 }, async () => 42)).toBe(42);
  });

  it('fails a step past its deadline and hands what it produces late to the discard callback', async () => {
    let discarded: string | undefined;
    const late = new Promise<string>((resolve) => setTimeout(() => resolve('socket'), 300));
    const error = await startFailure(withinDeadline({ server: 's', phase: 'connect', deadlineMs: 50 }, () => late, (value) => (discarded = value)));
    expect(error.reason).toBe('connect did not finish within 50 ms');
    await expect.poll(() => discarded).toBe('socket');
  });
});
