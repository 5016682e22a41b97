// The clean checkpoint through core alone (no HTTP): what instructions.bench.mjs counts to
// separate the operation's own cost from the server's. 50 runtimes on the memory store and
// provider, each written and checkpointed twice (so every later checkpoint takes the reuse path),
// then `node core-checkpoints.mjs <requests>` clean checkpoints in turn, one macrotask each as
// requests arrive, after a fixed warm-up that leaves the JIT settled.
import { MemoryRuntimeStore, RuntimeService } from '@runtimectl/core';
import { createMemoryProvider } from '@runtimectl/testkit';

const RUNTIMES = 50;
const WARM_UP = 4000;
const requests = Number(process.argv[2]);
const service = new RuntimeService({ store: new MemoryRuntimeStore(), providers: [createMemoryProvider()], defaultProvider: 'memory' });
const ids = [];
for (let index = 0; index < RUNTIMES; index += 1) {
  const runtime_id = `bench-${String(index).padStart(3, '0')}`;
  await service.open({ runtime_id, conversation_id: 'bench', sender_id: 'bench' });
  await service.writeFile({ runtime_id, path: 'seed.txt', content_base64: 'c2VlZA==' });
  await service.checkpoint({ runtime_id });
  if (!(await service.checkpoint({ runtime_id })).reused_backend_snapshot) throw new Error('a clean runtime must reuse its snapshot');
  ids.push(runtime_id);
}
for (let done = 0; done < WARM_UP + requests; done += 1) {
  await service.checkpoint({ runtime_id: ids[done % RUNTIMES] });
  await new Promise(setImmediate);
}
