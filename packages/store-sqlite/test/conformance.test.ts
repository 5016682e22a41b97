import { join } from 'node:path';
import { runStoreConformance } from '@runtimectl/testkit';
import { createSqliteStore } from '../src/index';
import { temporaryDirectory } from './temp-directory';

// A real database file per test, with the default settings the daemon uses. `reopen` opens a
// second store on the same file after the suite closed the first: the restart tests cross a
// real close/open, not just a new RuntimeService.
runStoreConformance({
  name: 'sqlite (file)',
  createStore: () => {
    const directory = temporaryDirectory();
    const path = join(directory.path, 'state', 'runtimectl.db');
    return {
      store: createSqliteStore({ path }),
      reopen: () => createSqliteStore({ path }),
      cleanup: directory.remove,
    };
  },
});
