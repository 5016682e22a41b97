import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { OwnedResources } from '@runtimectl/provider';
import { errorCode } from './fs-errors';
import { resourceOf, workspaceNameIn } from './workspace-names';
import { OWNER_ONLY_DIRECTORY_MODE, OWNER_ONLY_FILE_MODE } from './owner-only';

/** Beside the workspaces (whose names start with a letter or digit, so never collide). */
const OWNERS_DIRECTORY = '.owners';

/**
 * The ownership labels core gave each live workspace at create, kept as `<root>/.owners/<name>.json`
 * so that after a crash `listOwnedResources` can name workspaces no runtime record accounts for.
 */
export class WorkspaceOwners {
  constructor(private readonly root: string) {}

  async record(name: string, labels: Record<string, string>): Promise<void> {
    await mkdir(join(this.root, OWNERS_DIRECTORY), { recursive: true, mode: OWNER_ONLY_DIRECTORY_MODE });
    await writeFile(join(this.root, OWNERS_DIRECTORY, `${name}.json`), `${JSON.stringify(labels)}\n`, { mode: OWNER_ONLY_FILE_MODE });
  }

  /** The workspace is released: no longer owned by anyone. Idempotent. */
  async forget(name: string): Promise<void> {
    await rm(join(this.root, OWNERS_DIRECTORY, `${name}.json`), { force: true });
  }

  /** Live workspaces labelled with `installationId`. The local provider has no snapshots. */
  async list(installationId: string): Promise<OwnedResources> {
    let files: string[];
    try {
      files = await readdir(join(this.root, OWNERS_DIRECTORY));
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return { backends: [], snapshots: [] };
      throw error;
    }
    const backends: OwnedResources['backends'] = [];
    for (const file of files.filter((entry) => entry.endsWith('.json')).sort()) {
      const name = workspaceNameIn({ workspace: file.slice(0, -'.json'.length) });
      const labels = name ? await this.#labels(name) : null;
      if (!name || labels?.runtimectl_installation !== installationId || !labels.runtimectl_backend_id) continue;
      // A workspace removed behind our back is not owned any more: its record is stale.
      if (!(await this.#exists(name))) {
        await this.forget(name);
        continue;
      }
      backends.push({ backendId: labels.runtimectl_backend_id, resource: resourceOf(name) });
    }
    return { backends, snapshots: [] };
  }

  async #exists(name: string): Promise<boolean> {
    try {
      return (await stat(join(this.root, name))).isDirectory();
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return false;
      throw error;
    }
  }

  async #labels(name: string): Promise<Record<string, string> | null> {
    try {
      const parsed: unknown = JSON.parse(await readFile(join(this.root, OWNERS_DIRECTORY, `${name}.json`), 'utf8'));
      return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, string>) : null;
    } catch {
      return null;
    }
  }
}
