import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SandboxRecord } from './namespace-sandbox';
import type { SandboxNetwork } from './sandbox-network';

const NETWORKS: readonly SandboxNetwork[] = ['none', 'egress', 'host'];
const isId = (value: unknown) => Number.isSafeInteger(value) && (value as number) > 0;

/**
 * Where a sandbox's holder is recorded on disk, so a restarted daemon can enter it again or
 * kill it. Unreadable or malformed content reads as no record. Records written before the
 * network became a mode (`network: true | false`) read as `host` and `none`.
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
    const record = parsed as Partial<Omit<SandboxRecord, 'network'>> & { network?: unknown };
    if (!Number.isSafeInteger(record.pid) || (record.pid as number) < 2) return undefined;
    if (typeof record.startTime !== 'string' || !/^\d+$/.test(record.startTime)) return undefined;
    const network = record.network === true ? 'host' : record.network === false ? 'none' : record.network;
    if (!NETWORKS.includes(network as SandboxNetwork)) return undefined;
    const result: SandboxRecord = { pid: record.pid as number, startTime: record.startTime, network: network as SandboxNetwork };
    if (record.layout === 2) result.layout = 2;
    if (Array.isArray(record.targets) && record.targets.every((target) => typeof target === 'string')) result.targets = record.targets;
    if (record.identity !== undefined) {
      if (!isId(record.identity.uid) || !isId(record.identity.gid)) return undefined;
      result.identity = { uid: record.identity.uid, gid: record.identity.gid };
    }
    if (record.users !== undefined) {
      if (!Array.isArray(record.users) || !record.users.every(isId)) return undefined;
      result.users = [...record.users];
    }
    if (record.cgroup !== undefined) {
      const { name, places, limits } = record.cgroup;
      if (typeof name !== 'string' || !Array.isArray(places) || typeof limits !== 'object' || limits === null) return undefined;
      if (!places.every((place) => typeof place?.directory === 'string' && place.directory.startsWith('/'))) return undefined;
      result.cgroup = { name, places, limits, ...(record.cgroup.split === true ? { split: true as const } : {}) };
    }
    return result;
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
