import { MemoryRuntimeStore } from '@runtimectl/core';
import { runStoreConformance } from '../src/index';

// The suite proves itself against core's reference store. It has no `reopen`: the restart test
// keeps the same instance, as a daemon that restarts its service but not its process would.
runStoreConformance({ name: 'memory', createStore: () => new MemoryRuntimeStore() });
