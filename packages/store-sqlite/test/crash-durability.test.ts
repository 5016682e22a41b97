import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../src/index';
import { temporaryDirectory } from './temp-directory';

const CHILD = fileURLToPath(new URL('./fixtures/commit-then-die.mjs', import.meta.url));
const BUILT = fileURLToPath(new URL('../dist/index.js', import.meta.url));

interface ChildRun {
  acked: number[];
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** Runs the child; in loop mode SIGKILLs it once it has acknowledged `killAfterAcks` commits. */
function runChild(path: string, synchronous: string, mode: 'once' | 'loop', killAfterAcks = 0): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, path, synchronous, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
    const acked: number[] = [];
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const lines = stdout.split('\n');
      stdout = lines.pop()!;
      for (const line of lines) {
        acked.push(Number(line.replace('ack ', '')));
        if (mode === 'loop' && acked.length === killAfterAcks) child.kill('SIGKILL');
      }
    });
    child.on('error', reject);
    child.on('close', (_code, signal) => resolve({ acked, signal, stderr }));
  });
}

function integrityOf(path: string): { integrity: string; foreignKeyViolations: unknown[] } {
  const db = new Database(path, { readonly: true });
  try {
    return {
      integrity: db.pragma('integrity_check', { simple: true }) as string,
      foreignKeyViolations: db.pragma('foreign_key_check') as unknown[],
    };
  } finally {
    db.close();
  }
}

describe('an acknowledged commit survives the process being SIGKILLed (child processes, real files)', () => {
  let directory: ReturnType<typeof temporaryDirectory>;
  let path: string;
  beforeAll(() => {
    if (!existsSync(BUILT)) throw new Error(`the crash test runs the built store: run \`pnpm run build\` first (${BUILT} is missing)`);
  });
  beforeEach(() => {
    directory = temporaryDirectory();
    path = join(directory.path, 'runtimectl.db');
  });
  afterEach(() => directory.remove());

  for (const synchronous of ['full', 'normal'] as const) {
    it(`synchronous=${synchronous}: a batch committed right before SIGKILL is there for the next process`, async () => {
      const run = await runChild(path, synchronous, 'once');
      expect(run.signal, run.stderr).toBe('SIGKILL');
      expect(existsSync(`${path}-wal`), 'the WAL was left behind, as after a real crash').toBe(true);

      const store = createSqliteStore({ path });
      const session = await store.getSession('rt-once');
      expect(session).toMatchObject({ status: 'paused', headCheckpointId: `rtcp_${'1'.padStart(32, '0')}` });
      expect(await store.getCheckpoint(session!.headCheckpointId!)).toMatchObject({ runtimeId: 'rt-once', kind: 'pause' });
      await store.close();
      expect(integrityOf(path)).toStrictEqual({ integrity: 'ok', foreignKeyViolations: [] });
    });

    it(`synchronous=${synchronous}: killed mid-stream, every acknowledged commit is present and the file is consistent`, async () => {
      const killAfterAcks = 25 + Math.floor(Math.random() * 50);
      const run = await runChild(path, synchronous, 'loop', killAfterAcks);
      expect(run.signal, run.stderr).toBe('SIGKILL');
      expect(run.acked.length).toBeGreaterThanOrEqual(killAfterAcks);

      const store = createSqliteStore({ path });
      for (const n of run.acked) {
        const session = await store.getSession(`rt-${String(n).padStart(6, '0')}`);
        expect(session?.status, `acknowledged runtime ${n}`).toBe('paused');
        expect(await store.getCheckpoint(session!.headCheckpointId!), `checkpoint of runtime ${n}`).toBeDefined();
      }
      // At most the batch in flight when the kill landed is there without its acknowledgement.
      const stored = (await store.listSessions({ limit: 10_000 })).items.length;
      expect(stored - run.acked.length).toBeLessThanOrEqual(1);
      await store.close();
      expect(integrityOf(path)).toStrictEqual({ integrity: 'ok', foreignKeyViolations: [] });
    });
  }
});
