import { defineProvider } from '@runtimectl/provider';
import { z } from 'zod';
import { createLocalProvider } from '../local-provider';
import { hostWorkspaceProviderSettings, hostWorkspaceSettingsShape } from './host-workspace-settings';

/** The local provider as runtimed loads it (`[providers.local]`): workspaces on this machine, no snapshots. */
export const localProviderDefinition = defineProvider({
  id: 'local',
  description: 'workspaces on this machine, without snapshots',
  settings: z.strictObject({
    ...hostWorkspaceSettingsShape,
    keep_workspaces: z.boolean().default(false).describe('keep workspace directories after release (default false)'),
  }),
  create(settings, context) {
    const provider = createLocalProvider({ ...hostWorkspaceProviderSettings(settings, context), keepWorkspaces: settings.keep_workspaces });
    context.telemetry.watchWorkspaceUsage(() => provider.workspaceUsage());
    return provider;
  },
});
