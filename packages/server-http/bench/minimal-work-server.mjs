// The like-for-like reference of the dirty-checkpoint rows (`work-minimal`, issue 32 item 14):
// the required per-request features assembled by hand (minimal-server.mjs) in front of the same
// work the daemon does — core's RuntimeService on the memory store and the memory provider —
// for the two routes of the dirty workload, `write-file` and `checkpoint`. What it leaves out is
// what the runtime API adds per request beyond those features. `BENCH_RUNTIMES` runtimes
// (`bench-000`…) are opened before it listens.
import {
  MemoryRuntimeStore,
  RuntimeCheckpointRequestSchema,
  RuntimeCheckpointResultSchema,
  RuntimeService,
  RuntimeWriteFileRequestSchema,
  RuntimeWriteFileResultSchema,
} from '@runtimectl/core';
import { createMemoryProvider } from '@runtimectl/testkit';
import { listenForBench, minimalServer } from './minimal-server.mjs';

const service = new RuntimeService({ store: new MemoryRuntimeStore(), providers: [createMemoryProvider()], defaultProvider: 'memory' });
const runtimes = Number(process.env.BENCH_RUNTIMES ?? 50);
for (let index = 0; index < runtimes; index += 1) {
  await service.open({ runtime_id: `bench-${String(index).padStart(3, '0')}`, conversation_id: 'bench', sender_id: 'bench' });
}

const app = minimalServer();
app.post(
  '/api/v1/runtimes/write-file',
  { schema: { body: RuntimeWriteFileRequestSchema, response: { 200: RuntimeWriteFileResultSchema } } },
  (request) => service.writeFile(request.body),
);
app.post(
  '/api/v1/runtimes/checkpoint',
  { schema: { body: RuntimeCheckpointRequestSchema, response: { 200: RuntimeCheckpointResultSchema } } },
  (request) => service.checkpoint(request.body),
);
await listenForBench(app);
