import { join } from 'node:path';

/** What the daemon knows of a first-party provider: its package, whether it runs unless configured, and where older releases kept its state. */
export interface FirstPartyProvider {
  package: string;
  enabledByDefault: boolean;
  /**
   * Settings that keep an existing installation's data where it was before providers were
   * packages (workspaces under <state_dir>, not <state_dir>/providers/<id>); the section overrides them.
   */
  compatibleDefaults(stateDir: string): Record<string, unknown>;
}

/**
 * The first-party providers by id. They load exactly like a third party's: by package name,
 * through the same resolution, schema and context (src/providers/load-providers.ts); this table
 * only spares their sections a `package` line.
 */
export const FIRST_PARTY_PROVIDERS: Readonly<Record<string, FirstPartyProvider>> = {
  local: {
    package: '@runtimectl/provider-local',
    enabledByDefault: true,
    compatibleDefaults: (stateDir) => ({ root: join(stateDir, 'workspaces') }),
  },
  fs: {
    package: '@runtimectl/provider-fs',
    enabledByDefault: true,
    compatibleDefaults: (stateDir) => ({ root: join(stateDir, 'fs', 'workspaces'), snapshots: join(stateDir, 'fs', 'snapshots') }),
  },
  memory: { package: '@runtimectl/testkit/memory-provider', enabledByDefault: false, compatibleDefaults: () => ({}) },
  e2b: { package: '@runtimectl/provider-e2b', enabledByDefault: false, compatibleDefaults: () => ({}) },
};
