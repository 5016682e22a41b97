import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorShapeProblem } from '../support/error-shape';
import { writeFigures } from '../support/figures';
import { Api, type Reply } from '../support/http';
import { startRuntimed, type RuntimedProcess } from '../support/processes';
import { openRuntime } from '../support/runtime-steps';

// Issue 18 item 5, through the HTTP API of a real runtimed (local provider): a runtime's own
// command swaps the workspace directory `dir` for a symbolic link to a directory outside and
// back, as fast as it can, while clients read, export, stat, write, mkdir, search and exec
// under `dir`. Before the fix the jail checked the path and then used it, so a parent swapped
// in between was followed (the issue counted 1,179 escapes in 5,228 racing requests). Now not
// one request may read, list, stat or create anything outside.
const RACE_MS = 3_000;
const CLIENTS = 6;
const SECRET = `outside-secret-${randomBytes(12).toString('hex')}`;
const ONLY_OUTSIDE = 'only-outside.txt';
const ONLY_OUTSIDE_TEXT = `only-outside-${randomBytes(12).toString('hex')}`;

let daemon: RuntimedProcess;
let api: Api;
let outside: string;
let runtimeId: string;
const figures: Record<string, unknown> = { raceMs: RACE_MS, clients: CLIENTS };

const b64 = (text: string) => Buffer.from(text).toString('base64');
const fromB64 = (text: string) => Buffer.from(text, 'base64').toString();

beforeAll(async () => {
  outside = mkdtempSync(join(tmpdir(), 'reliability-race-outside-'));
  writeFileSync(join(outside, 'secret.txt'), SECRET);
  writeFileSync(join(outside, ONLY_OUTSIDE), ONLY_OUTSIDE_TEXT);
  daemon = await startRuntimed({ args: ['--provider', 'local'] });
  api = new Api(daemon.url);
  runtimeId = await openRuntime(api);
  await api.ok('/api/v1/runtimes/write-file', { runtime_id: runtimeId, path: 'dir/secret.txt', content_base64: b64('inside') });
});

afterAll(async () => {
  writeFigures('symlink-race', figures);
  rmSync(outside, { recursive: true, force: true });
  if (daemon) expect(await daemon.stop(), 'runtimed exit code').toBe(0);
});

/** One request per operation the issue names, aimed under `dir`; `escaped` reads the reply. */
const ATTACKS: Array<{ name: string; route: string; body: (i: number) => Record<string, unknown>; escaped: (reply: Reply) => boolean }> = [
  { name: 'read-file', route: 'read-file', body: () => ({ path: 'dir/secret.txt' }), escaped: (r) => r.status === 200 && fromB64((r.json as { content_base64: string }).content_base64).includes(SECRET) },
  { name: 'export', route: 'export', body: () => ({ path: 'dir/secret.txt' }), escaped: (r) => r.text.includes(SECRET) },
  { name: 'stat', route: 'stat', body: () => ({ path: `dir/${ONLY_OUTSIDE}` }), escaped: (r) => r.status === 200 && (r.json as { exists: boolean }).exists },
  { name: 'write-file', route: 'write-file', body: (i) => ({ path: `dir/written-${i}.txt`, content_base64: b64('x') }), escaped: () => false },
  { name: 'mkdir', route: 'mkdir', body: (i) => ({ path: `dir/made-${i}/sub` }), escaped: () => false },
  { name: 'search glob', route: 'search', body: () => ({ glob: '**', base_dir: 'dir' }), escaped: (r) => r.text.includes(ONLY_OUTSIDE) },
  { name: 'search grep', route: 'search', body: () => ({ grep: { query: SECRET, base_dir: 'dir' } }), escaped: (r) => r.text.includes(SECRET) },
  {
    name: 'exec cwd',
    route: 'exec',
    body: () => ({ command: `cat ${ONLY_OUTSIDE} 2>/dev/null; pwd`, cwd: 'dir' }),
    escaped: (r) => r.status === 200 && /only-outside-|reliability-race-outside-/.test(fromB64((r.json as { stdout_base64: string }).stdout_base64)),
  },
];

describe('symlink-swap race against the local provider\'s jail, through the HTTP API', () => {
  it('a parent directory swapped for a symlink to outside by a command is never followed: 0 escapes', async () => {
    // The hostile command: swaps `dir` for a link to `outside` and back (by renames, so `dir` is
    // almost never missing; a directory a request re-created meanwhile is moved aside) until it
    // is killed (the runtime's close kills it) or 20 s have passed. perl: thousands of swaps a second.
    const loop = [
      'symlink $ARGV[0], "link"; my ($end, $n, $swaps) = (time + 20, 0, 0);',
      'while (time < $end) {',
      'rename "dir", "real"; rename "link", "dir";',
      'if (-l "dir") { rename "dir", "link" } elsif (-d "dir") { rename "dir", "stray-" . $n++ }',
      'rename "real", "dir";',
      // The swap count, replaced whole (by a rename) every 100 swaps so a read never sees half of it.
      'if (++$swaps % 100 == 0) { open my $count, ">", "swaps.tmp"; print $count $swaps; close $count; rename "swaps.tmp", "swaps.txt" } }',
    ].join(' ');
    const swapper = `perl -e '${loop}' '${outside}' >/dev/null 2>&1 &`;
    const started = await api.ok<{ exit_code: number }>('/api/v1/runtimes/exec', { runtime_id: runtimeId, command: swapper });
    expect(started.exit_code).toBe(0);

    const counts: Record<string, { attempts: number; ok: number; refused: number; escaped: number; statuses: Record<number, number> }> = {};
    const deadline = Date.now() + RACE_MS;
    // Runs for RACE_MS and on until every operation ran three times: a loaded machine slows the
    // race down, it does not shorten the proof (the test's own timeout bounds it).
    const everyRanThrice = () => ATTACKS.every((attack) => (counts[attack.name]?.attempts ?? 0) >= 3);
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        for (let i = client; Date.now() < deadline || !everyRanThrice(); i += CLIENTS) {
          const attack = ATTACKS[i % ATTACKS.length]!;
          const reply = await api.post(`/api/v1/runtimes/${attack.route}`, { runtime_id: runtimeId, ...attack.body(i) }, { timeoutMs: 10_000 });
          const count = (counts[attack.name] ??= { attempts: 0, ok: 0, refused: 0, escaped: 0, statuses: {} });
          count.attempts += 1;
          count.statuses[reply.status] = (count.statuses[reply.status] ?? 0) + 1;
          if (attack.escaped(reply)) count.escaped += 1;
          else if (reply.status === 200) count.ok += 1;
          else {
            count.refused += 1;
            expect(reply.status, `${attack.name}: ${reply.text.slice(0, 300)}`).toBeLessThan(500);
            expect(errorShapeProblem(reply), attack.name).toBeUndefined();
          }
        }
      }),
    );
    const swapped = await api.post('/api/v1/runtimes/read-file', { runtime_id: runtimeId, path: 'swaps.txt' });
    const swaps = swapped.status === 200 ? Number(fromB64((swapped.json as { content_base64: string }).content_base64)) : 0;
    const closed = await api.post('/api/v1/runtimes/close', { runtime_id: runtimeId });
    expect(closed.status, closed.text.slice(0, 300)).toBe(200);

    const created = readdirSync(outside).filter((name) => name !== 'secret.txt' && name !== ONLY_OUTSIDE);
    const total = (key: 'attempts' | 'ok' | 'refused' | 'escaped') => Object.values(counts).reduce((sum, count) => sum + count[key], 0);
    const escapes = total('escaped') + created.length;
    Object.assign(figures, { swaps, attempts: total('attempts'), ok: total('ok'), refused: total('refused'), escapes, createdOutside: created.length, byOperation: counts });
    const summary = JSON.stringify({ created, counts });
    expect(swaps, `swaps made by the command: ${summary}`).toBeGreaterThan(0);
    expect(total('attempts'), summary).toBeGreaterThanOrEqual(3 * ATTACKS.length);
    expect(total('refused'), `the race was live: ${summary}`).toBeGreaterThan(0);
    expect(escapes, `escapes (outside read, listed, stat'ed or created): ${summary}`).toBe(0);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe(SECRET);
  });
});
