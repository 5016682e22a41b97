import { defineProvider } from '@runtimectl/provider';
import { z } from 'zod';
import { createMemoryProvider } from './memory-provider';

/** The in-memory reference provider as runtimed loads it (`[providers.memory]`): workspaces and snapshots in the daemon's memory. */
export const memoryProviderDefinition = defineProvider({
  id: 'memory',
  description: 'the in-memory reference provider, with snapshots (lost on exit)',
  settings: z.strictObject({}),
  create: (_settings, context) => createMemoryProvider({ providerId: context.providerId }),
});
