import { resolve } from 'node:path';
import type { ProviderContext } from '@runtimectl/provider';
import { z } from 'zod';
import type { LocalProviderSettings } from '../local-provider';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `network` as written before it was a mode: a boolean (or on/off, true/false from the environment). */
function legacyNetwork(value: unknown): unknown {
  if (value === true || value === 'on' || value === 'true') return 'host';
  if (value === false || value === 'off' || value === 'false') return 'none';
  return value;
}

/** The settings of every provider whose workspaces are directories on this machine (local, and fs which composes it). */
export const hostWorkspaceSettingsShape = {
  root: z.string().min(1).optional().describe('workspaces directory (default in runtimed: <state_dir>/workspaces for local, <state_dir>/fs/workspaces for fs)'),
  shell: z.string().min(1).default('/bin/sh').describe('shell for commands (default /bin/sh)'),
  workspace_quota_bytes: z
    .int()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .default(10 * 1024 ** 3)
    .describe('disk bytes one workspace may use; 0 for no quota (default 10737418240 = 10 GiB)'),
  workspace_quota_inodes: z
    .int()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .default(1_000_000)
    .describe('files, directories and links (inodes) one workspace may hold; 0 for no limit (default 1000000)'),
  env: z.record(z.string().regex(ENV_NAME), z.string()).default({}).describe('variables every command gets (a table / JSON object)'),
  isolation: z
    .enum(['auto', 'namespace', 'none'])
    .default('auto')
    .describe('auto (default: namespace where the machine allows it, else none), namespace (required) or none'),
  network: z
    .preprocess(legacyNetwork, z.enum(['none', 'egress', 'host']))
    .default('egress')
    .describe('with namespace isolation: egress (default: outbound via slirp4netns or pasta, never host loopback; none where neither works), none (loopback only) or host'),
  workspace_path: z
    .string()
    .regex(/^\/./, 'an absolute path')
    .default('/home/user/workspace')
    .describe("where commands see their workspace, for a runtime's whole life (default /home/user/workspace)"),
  sandbox_ids: z
    .string()
    .regex(/^(auto|daemon|[1-9]\d*:[1-9]\d*)$/, 'auto, daemon, or "uid:gid" (two positive whole numbers)')
    .default('auto')
    .describe("host ids a sandbox's root is: auto (default: uid/gid 2147000000 as root, else the daemon's), daemon, or uid:gid"),
  memory_limit_bytes: z
    .int()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .optional()
    .describe("memory of one workspace's commands together; 0 for none (default half the RAM, at most 4 GiB)"),
  pids_limit: z
    .int()
    .min(0)
    .max(4_194_304)
    .optional()
    .describe("processes and threads of one workspace's commands together; 0 for none (default 4096)"),
  cpu_limit_cores: z
    .number()
    .min(0)
    .max(4096)
    .optional()
    .describe('CPU cores one workspace\'s commands may use together, e.g. 1.5; 0 for none (default all cores but one, at least 1)'),
};

export type HostWorkspaceSettings = z.output<z.ZodObject<typeof hostWorkspaceSettingsShape>>;

/** `sandbox_ids` as the provider takes it: auto, the daemon's own ids (`caller`), or explicit ids. */
function sandboxIds(value: string): LocalProviderSettings['sandboxIds'] {
  if (value === 'auto') return 'auto';
  if (value === 'daemon') return 'caller';
  const [uid, gid] = value.split(':').map(Number);
  return { uid: uid!, gid: gid! };
}

/** The provider settings a `[providers.<id>]` section of local or fs means; workspaces default to `<stateDir>/<defaultRoot>`. */
export function hostWorkspaceProviderSettings(settings: HostWorkspaceSettings, context: ProviderContext): LocalProviderSettings {
  return {
    providerId: context.providerId,
    root: resolve(settings.root ?? resolve(context.stateDir, 'workspaces')),
    shell: settings.shell,
    env: settings.env,
    workspaceQuotaBytes: settings.workspace_quota_bytes,
    workspaceQuotaInodes: settings.workspace_quota_inodes,
    isolation: settings.isolation,
    network: settings.network,
    workspacePath: settings.workspace_path,
    sandboxIds: sandboxIds(settings.sandbox_ids),
    limits: {
      ...(settings.memory_limit_bytes === undefined ? {} : { memoryBytes: settings.memory_limit_bytes }),
      ...(settings.pids_limit === undefined ? {} : { pids: settings.pids_limit }),
      ...(settings.cpu_limit_cores === undefined ? {} : { cpuCores: settings.cpu_limit_cores }),
    },
    quotaObserver: { refused: (operation) => context.telemetry.workspaceQuotaRefused(operation) },
  };
}
