import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SandboxRecord } from './namespace-sandbox';

/**
 * Where a sandbox's holder is recorded on disk, so a restarted daemon can enter it again or
 * kill it. Unreadable or malformed content reads as no record.
 */
export class HolderFile {
  constructor(readonly path: string) {}

  async read(): Promise<SandboxRecord | undefined> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(this.path, 'utf8'));
    } catch {
      return undefined;
    }
    const record = parsed as Partial<SandboxRecord>;
    if (!Number.isSafeInteger(record.pid) || (record.pid as number) < 2) return undefined;
    if (typeof record.startTime !== 'string' || !/^\d+$/.test(record.startTime) || typeof record.network !== 'boolean') return undefined;
    return { pid: record.pid as number, startTime: record.startTime, network: record.network };
  }

  async write(record: SandboxRecord): Promise<void> {
    // Owner-only: it names a sandbox's process, and its directory sits in the daemon's state.
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    await writeFile(this.path, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  }

  async remove(): Promise<void> {
    await rm(this.path, { force: true });
  }
}
