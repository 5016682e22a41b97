import { runStoreConformance } from '@runtimectl/testkit';
import { storeOnFreshSchema } from './test-store';

// A fresh schema per test on the run's real PostgreSQL. `reopen` opens a second store (a new
// pool) on the same schema after the suite closed the first: the restart tests cross a real
// close/open, not just a new RuntimeService. `openPeer` opens more pools on the same schema
// while the first stays open: the lease tests race their nodes across real connections.
runStoreConformance({
  name: 'postgres',
  createStore: async () => {
    const { store, reopen, cleanup } = await storeOnFreshSchema();
    return { store, reopen, openPeer: reopen, cleanup };
  },
});
