import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorShapeProblem } from '../support/error-shape';
import { writeFigures } from '../support/figures';
import { Api, type Reply } from '../support/http';
import { startRuntimed, type RuntimedProcess } from '../support/processes';
import { openRuntime } from '../support/runtime-steps';

// The local provider's path jail, attacked through the HTTP API of a real runtimed: `..`,
// absolute paths, and symbolic links (made with exec, as a caller can) to a directory outside
// the workspace, to a file there, to a name there that does not exist yet, and to `..`. Every
// file operation must refuse (4xx) and nothing outside may be read, listed or written.
const SECRET = `outside-secret-${randomBytes(12).toString('hex')}`;

let daemon: RuntimedProcess;
let api: Api;
let outside: string;
let runtimeId: string;
const outcomes: Record<string, number> = {};

function b64(text: string): string {
  return Buffer.from(text).toString('base64');
}

function outsideListing(): string[] {
  const walk = (dir: string, prefix: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? [`${prefix}${entry.name}/`, ...walk(join(dir, entry.name), `${prefix}${entry.name}/`)] : [`${prefix}${entry.name}`],
    );
  return walk(outside, '').sort();
}

beforeAll(async () => {
  outside = mkdtempSync(join(tmpdir(), 'reliability-outside-'));
  writeFileSync(join(outside, 'secret.txt'), SECRET);
  mkdirSync(join(outside, 'sub'));
  daemon = await startRuntimed({ args: ['--provider', 'local'] });
  api = new Api(daemon.url);
  runtimeId = await openRuntime(api);
  await api.ok('/api/v1/runtimes/write-file', { runtime_id: runtimeId, path: 'inside.txt', content_base64: b64('inside') });
  // A caller can make links with exec; the file API must still not follow them out.
  const script = [
    `ln -s '${outside}' link-dir`,
    `ln -s '${outside}/secret.txt' link-file`,
    `ln -s '${outside}/created-through-link.txt' dangling`,
    'ln -s .. up',
    'mkdir -p nested && ln -s ../../.. nested/way-up',
  ].join(' && ');
  const made = await api.ok<{ exit_code: number; stderr_base64: string }>('/api/v1/runtimes/exec', { runtime_id: runtimeId, command: script, timeout_ms: 30_000 });
  expect(made.exit_code, Buffer.from(made.stderr_base64, 'base64').toString()).toBe(0);
});

afterAll(async () => {
  writeFigures('path-jail', { attempts: Object.values(outcomes).reduce((sum, count) => sum + count, 0), byStatus: outcomes });
  rmSync(outside, { recursive: true, force: true });
  // A daemon that crashed during the file would not exit 0 on SIGTERM.
  if (daemon) expect(await daemon.stop(), 'runtimed exit code').toBe(0);
});

const ESCAPES = [
  '../escape.txt',
  '../../../../../../etc/passwd',
  'a/../../escape.txt',
  './../escape.txt',
  'nested/../../escape.txt',
  '/etc/passwd',
  'link-dir/secret.txt',
  'link-dir/sub/new.txt',
  'link-file',
  'dangling',
  'up/escape.txt',
  'nested/way-up/escape.txt',
];

function expectRefused(reply: Reply, what: string): void {
  outcomes[reply.status] = (outcomes[reply.status] ?? 0) + 1;
  expect(reply.status >= 400 && reply.status < 500, `${what} → ${reply.status} ${reply.text.slice(0, 200)}`).toBe(true);
  expect(errorShapeProblem(reply), what).toBeUndefined();
  expect(reply.text, what).not.toContain(SECRET);
}

describe('the local provider\'s path jail, through the HTTP API', () => {
  it.each(ESCAPES)('%s: read, stat, export, write, mkdir and exec cwd are all refused', async (path) => {
    const before = outsideListing();
    for (const [route, body] of [
      ['read-file', { path }],
      ['export', { path }],
      ['write-file', { path, content_base64: b64('escaped') }],
      ['mkdir', { path }],
      ['mkdir', { path: `${path}/made.d` }],
      ['exec', { command: 'pwd', cwd: path.replace(/\/[^/]*$/, '') || path }],
    ] as const) {
      const reply = await api.post(`/api/v1/runtimes/${route}`, { runtime_id: runtimeId, ...body });
      expectRefused(reply, `${route} ${JSON.stringify(body)}`);
    }
    const stat = await api.post('/api/v1/runtimes/stat', { runtime_id: runtimeId, path });
    // stat answers "does not exist" (200) for paths inside the workspace; outside it must refuse.
    expectRefused(stat, `stat ${path}`);
    expect(outsideListing(), 'nothing created outside').toEqual(before);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe(SECRET);
  });

  it('search never lists or reads through a link that leaves the workspace', async () => {
    for (const body of [{ glob: '**/*' }, { glob: '**/secret.txt' }, { grep: { query: SECRET } }, { grep: { query: SECRET, include: '**/*' } }]) {
      const reply = await api.post('/api/v1/runtimes/search', { runtime_id: runtimeId, ...body });
      expect(reply.status, JSON.stringify(body)).toBe(200);
      expect(reply.text).not.toContain(SECRET);
      expect(reply.text).not.toContain('secret.txt');
    }
    for (const baseDir of ['..', '../..', '/', outside, 'link-dir', 'up', 'nested/way-up']) {
      for (const body of [{ glob: '**/*', base_dir: baseDir }, { grep: { query: SECRET, base_dir: baseDir } }]) {
        expectRefused(await api.post('/api/v1/runtimes/search', { runtime_id: runtimeId, ...body }), `search ${JSON.stringify(body)}`);
      }
    }
  });

  it('paths that only look odd stay inside and work', async () => {
    for (const path of ['a/b/../c.txt', './d.txt', '%2e%2e/e.txt', '..\\f.txt', '...', 'g/./h.txt']) {
      const reply = await api.post('/api/v1/runtimes/write-file', { runtime_id: runtimeId, path, content_base64: b64(path) });
      expect(reply.status, `${path}: ${reply.text.slice(0, 200)}`).toBe(200);
      const read = await api.ok<{ content_base64: string }>('/api/v1/runtimes/read-file', { runtime_id: runtimeId, path });
      expect(Buffer.from(read.content_base64, 'base64').toString()).toBe(path);
    }
    expect(outsideListing()).toEqual(['secret.txt', 'sub/']);
  });
});
