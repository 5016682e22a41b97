import { spawn } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_PROCESSES_SCRIPT, COUNT_TOOLS_MISSING_EXIT, parseBackgroundProcesses } from './background-processes';

/** Runs the count as envd would (`bash -c`), with `env` as the whole environment. */
function runCount(env: Record<string, string>): Promise<{ stdout: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/bash', ['-c', BACKGROUND_PROCESSES_SCRIPT], { env, stdio: ['ignore', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, code }));
  });
}

describe('the background-process count', () => {
  it('prints a number and exits 0 where grep and wc work (on this host: whatever carries the marker)', async () => {
    const { stdout, code } = await runCount({ PATH: process.env.PATH ?? '/usr/bin:/bin' });
    expect(code).toBe(0);
    expect(parseBackgroundProcesses(stdout)).not.toBeNull();
  });

  it('exits with its own status, printing no 0, where grep is missing: a count it could not make is no count', async () => {
    const bin = await mkdtemp(join(tmpdir(), 'rtctl-count-'));
    try {
      // env and wc, but no grep.
      await symlink('/usr/bin/env', join(bin, 'env'));
      await symlink('/usr/bin/wc', join(bin, 'wc'));
      const { stdout, code } = await runCount({ PATH: bin });
      expect(code).toBe(COUNT_TOOLS_MISSING_EXIT);
      expect(parseBackgroundProcesses(stdout)).toBeNull();
    } finally {
      await rm(bin, { recursive: true, force: true });
    }
  });

  it('reads the number the script printed', () => {
    expect(parseBackgroundProcesses('0\n')).toBe(0);
    expect(parseBackgroundProcesses('  12\n')).toBe(12);
  });

  it('takes anything else as "cannot tell"', () => {
    for (const output of ['', 'sh: grep: not found', '-1', '1.5', '3 4']) expect(parseBackgroundProcesses(output)).toBeNull();
  });
});
