// Why the fs provider does not learn what changed from fs.watch (inotify): once more events are
// queued than fs.inotify.max_queued_events, the kernel drops the rest and queues one
// IN_Q_OVERFLOW, which libuv discards (its watch descriptor, -1, names no watcher) — Node is
// never told. A checkpoint trusting the watcher would silently miss files. Run:
//   node bench/watch-overflow.mjs
import { mkdtempSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'runtimectl-watch-overflow-'));
const seen = new Set();
const watcher = watch(dir, (_event, name) => {
  if (name) seen.add(name);
});
const N = 20_000;
// The event loop is busy while a command writes (here: this loop), as a daemon's may be.
for (let i = 0; i < N; i++) writeFileSync(join(dir, `f${i}`), 'x');
setTimeout(() => {
  console.log(`files written ${N}, names fs.watch reported ${seen.size}, silently missed ${N - seen.size} (fs.inotify.max_queued_events ${readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8').trim()})`);
  watcher.close();
  rmSync(dir, { recursive: true, force: true });
}, 1000);
