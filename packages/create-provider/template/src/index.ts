// What runtimed loads: `[providers.{{id}}] package = "<this package>"` names this default export.
import { join, resolve } from 'node:path';
import { defineProvider } from '@runtimectl/provider';
import { z } from 'zod';
import { createDirectoryProvider } from './directory-provider.js';

export default defineProvider({
  id: '{{id}}',
  description: 'Workspaces as directories on this machine, snapshots as directory copies',
  settings: z.strictObject({
    root: z.string().optional().describe('where workspaces live (default <provider state dir>/workspaces)'),
    command_timeout_ms: z.int().min(1).default(600_000).describe('longest a command runs when its request names no timeout'),
  }),
  create(settings, context) {
    // context.providerId is the key of the [providers.<id>] section: taking the id from there
    // lets an operator configure this package twice under two ids.
    return createDirectoryProvider({
      providerId: context.providerId,
      workspacesDir: resolve(settings.root ?? join(context.stateDir, 'workspaces')),
      snapshotsDir: join(context.stateDir, 'snapshots'),
      commandTimeoutMs: settings.command_timeout_ms,
    });
  },
});

export { createDirectoryProvider, type DirectoryProviderSettings } from './directory-provider.js';
