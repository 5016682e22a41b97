import { resolve } from 'node:path';
import { hostWorkspaceProviderSettings, hostWorkspaceSettingsShape } from '@runtimectl/provider-local';
import { defineProvider } from '@runtimectl/provider';
import { z } from 'zod';
import { createFsProvider } from './fs-provider';

/** The fs provider as runtimed loads it (`[providers.fs]`): local workspaces with filesystem snapshots. */
export const fsProviderDefinition = defineProvider({
  id: 'fs',
  description: 'workspaces on this machine, with filesystem snapshots',
  settings: z.strictObject({
    ...hostWorkspaceSettingsShape,
    snapshots: z
      .string()
      .min(1)
      .optional()
      .describe('snapshot store; same file system as root for copy-on-write checkouts (default in runtimed: <state_dir>/fs/snapshots)'),
    compress: z.boolean().default(true).describe('gzip snapshot blobs where that saves at least 10% (default true)'),
    snapshot_store: z
      .enum(['copy', 'layers', 'auto'])
      .default('auto')
      .describe('auto (default: layers where a probe mount works, else copy), layers (overlay mounts: checkout is a mount; root on Linux) or copy (a copy per checkout)'),
    flatten_past_layers: z
      .number()
      .int()
      .min(2)
      .max(100)
      .default(16)
      .describe('layers: a checkpoint whose chain of layers is longer is flattened into one layer after it answers (default 16; a mount takes about 130 at most)'),
  }),
  create(settings, context) {
    const { providerId: _fixed, ...local } = hostWorkspaceProviderSettings(settings, context);
    const provider = createFsProvider({
      ...local,
      snapshots: resolve(settings.snapshots ?? resolve(context.stateDir, 'snapshots')),
      compress: settings.compress,
      snapshotStore: settings.snapshot_store,
      flattenPastLayers: settings.flatten_past_layers,
      flattenFailed: (error) =>
        context.logger.warn({ reason: error.message }, 'flattening a chain of snapshot layers failed: the chain stays one layer longer, and the next checkpoint tries again'),
    });
    context.telemetry.watchWorkspaceUsage(() => provider.local.workspaceUsage());
    return provider;
  },
});
