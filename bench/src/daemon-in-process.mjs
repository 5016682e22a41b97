// A daemon for the memory measurement: `startDaemon` from @runtimectl/daemon in a process of its
// own, started with --expose-gc by the parent (fork, IPC). argv[2] is the config flags as JSON.
// On "measure" it collects garbage (twice: weak references and finalizers need a second pass)
// and answers with process.memoryUsage(), so the parent reads what live objects really hold.
import { loadConfig, startDaemon } from '@runtimectl/daemon';

const daemon = await startDaemon(loadConfig({ env: {}, flags: JSON.parse(process.argv[2]) }));
process.on('message', async (message) => {
  if (message === 'measure') {
    globalThis.gc();
    await new Promise((resolve) => setImmediate(resolve));
    globalThis.gc();
    process.send({ memory: process.memoryUsage() });
  } else if (message === 'close') {
    await daemon.close();
    process.exit(0);
  }
});
process.on('disconnect', () => daemon.close().then(() => process.exit(0)));
process.send({ url: daemon.url });
