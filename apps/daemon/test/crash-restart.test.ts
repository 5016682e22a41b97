import { join } from 'node:path';
import { crashRestartTests } from './crash-restart-suite';
import { readStoreFile } from './store-file-rows';

// SQLite in the daemon's state directory (the default store).
crashRestartTests({ args: [], env: {}, readRows: (stateDir) => readStoreFile(join(stateDir, 'runtimectl.db')) });
