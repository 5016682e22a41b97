import { describe, expect, test } from 'vitest';
import {
  RuntimeExecResultSchema,
  RuntimeSearchResultSchema,
  RuntimeStatResultSchema,
  RuntimeWriteFileResultSchema,
} from '@runtimectl/core';
import { expectApiError, expectOk, fromBase64, toBase64, type ApiSuiteContext } from './api-suite-context';

/** Every byte value once, so an encoding slip anywhere shows. */
const ALL_BYTES = Uint8Array.from({ length: 256 }, (_, index) => index);

/** exec, files, search and export on the route-test provider. */
export function dataApiTests(context: ApiSuiteContext): void {
  const { client, options } = context;
  const testMs = options.timeouts.testMs;
  const id = () => context.runtimeId('data');
  let opened: Promise<unknown> | undefined;
  /** One runtime for the data tests, opened by the first test that needs it. */
  const ready = () => (opened ??= context.open('data'));

  describe('data routes', () => {
    test('exec returns base64 stdout, exit code, timed_out, truncated and duration; a non-zero exit is still 200', async () => {
      await ready();
      const echoed = await client.post('/api/v1/runtimes/exec', { runtime_id: id(), command: 'echo conformance' });
      expectOk(echoed);
      const result = RuntimeExecResultSchema.parse(echoed.body);
      expect(fromBase64(result.stdout_base64).toString()).toBe('conformance\n');
      expect(result).toMatchObject({ exit_code: 0, timed_out: false, truncated: false });
      expect(result.duration_ms).toBeGreaterThanOrEqual(0);
      const failed = await client.post('/api/v1/runtimes/exec', { runtime_id: id(), command: 'exit 3' });
      expectOk(failed);
      expect(failed.body.exit_code).toBe(3);
    }, testMs);

    test('exec passes exactly the env it is given', async () => {
      await ready();
      const printed = await client.post('/api/v1/runtimes/exec', {
        runtime_id: id(),
        command: 'printenv RUNTIMECTL_CONFORMANCE',
        env: { RUNTIMECTL_CONFORMANCE: 'yes-1' },
      });
      expectOk(printed);
      expect(fromBase64(printed.body.stdout_base64).toString()).toBe('yes-1\n');
    }, testMs);

    test('exec input the kernel would refuse is 400 invalid_request naming the field and its limit: an over-long command or env value, a NUL byte', async () => {
      await ready();
      const refusals: Array<[Record<string, unknown>, RegExp]> = [
        [{ command: `echo ${'x'.repeat(128 * 1024)}` }, /command.*65536 bytes/],
        [{ command: `echo ${'\u00e9'.repeat(33 * 1024)}` }, /command.*65536 bytes/],
        [{ command: 'echo a\u0000b' }, /command.*NUL/],
        [{ command: 'true', env: { BIG: 'y'.repeat(128 * 1024) } }, /env.*BIG.*32768 bytes/],
        [{ command: 'true', env: Object.fromEntries(Array.from({ length: 5 }, (_, index) => [`V${index}`, 'z'.repeat(30 * 1024)])) }, /env.*131072 bytes/],
        [{ command: 'true', env: { NUL: 'a\u0000b' } }, /env.*NUL/],
        [{ command: 'true', cwd: 'a\u0000b' }, /cwd.*NUL/],
        [{ command: 'true', shell: '/bin/sh\u0000x' }, /shell.*NUL/],
      ];
      for (const [input, message] of refusals) {
        const response = await client.post('/api/v1/runtimes/exec', { runtime_id: id(), ...input });
        expectApiError(response, 400, 'invalid_request');
        expect(String(response.body.error), JSON.stringify(Object.keys(input))).toMatch(message);
      }
      const commandAtLimit = await client.post('/api/v1/runtimes/exec', { runtime_id: id(), command: `true #${'x'.repeat(64 * 1024 - 6)}` });
      expectOk(commandAtLimit);
      expect(commandAtLimit.body.exit_code).toBe(0);
      const envAtLimit = await client.post('/api/v1/runtimes/exec', {
        runtime_id: id(),
        command: 'printenv AT_LIMIT',
        env: { AT_LIMIT: 'v'.repeat(32 * 1024) },
      });
      expectOk(envAtLimit);
      expect(fromBase64(envAtLimit.body.stdout_base64).toString()).toBe(`${'v'.repeat(32 * 1024)}\n`);
    }, testMs);

    test('runtime operations answer server-timing: provider;dur=<ms>, total;dur=<ms>', async () => {
      await ready();
      const response = await client.post('/api/v1/runtimes/stat', { runtime_id: id(), path: '.' });
      expectOk(response);
      const match = /^provider;dur=([\d.]+), total;dur=([\d.]+)$/.exec(response.headers.get('server-timing') ?? '');
      expect(match, `server-timing: ${response.headers.get('server-timing')}`).not.toBeNull();
      expect(Number(match![2])).toBeGreaterThanOrEqual(Number(match![1]));
    }, testMs);

    test('write-file then read-file round-trips every byte value; stat describes the file', async () => {
      await ready();
      const written = await client.post('/api/v1/runtimes/write-file', { runtime_id: id(), path: 'bytes/all.bin', content_base64: toBase64(ALL_BYTES) });
      expectOk(written);
      expect(RuntimeWriteFileResultSchema.parse(written.body)).toMatchObject({ path: expect.stringContaining('all.bin') });
      const read = await client.post('/api/v1/runtimes/read-file', { runtime_id: id(), path: 'bytes/all.bin' });
      expectOk(read);
      expect(fromBase64(read.body.content_base64).equals(Buffer.from(ALL_BYTES))).toBe(true);
      const stat = await client.post('/api/v1/runtimes/stat', { runtime_id: id(), path: 'bytes/all.bin' });
      expect(RuntimeStatResultSchema.parse(stat.body)).toMatchObject({ exists: true, kind: 'file', size_bytes: 256 });
      const missing = await client.post('/api/v1/runtimes/stat', { runtime_id: id(), path: 'bytes/none.bin' });
      expectOk(missing);
      expect(missing.body).toMatchObject({ exists: false });
    }, testMs);

    test('mkdir creates a directory with its parents', async () => {
      await ready();
      const made = await client.post('/api/v1/runtimes/mkdir', { runtime_id: id(), path: 'made/deep/dir' });
      expectOk(made);
      const stat = await client.post('/api/v1/runtimes/stat', { runtime_id: id(), path: 'made/deep' });
      expect(stat.body).toMatchObject({ exists: true, kind: 'directory' });
    }, testMs);

    test('search: glob finds files; grep finds literal text (not a regular expression); limit sets truncated', async () => {
      await ready();
      const files: Record<string, string> = {
        'search/one.ts': 'const x = 1;\ncall(a.b)\n',
        'search/two.ts': 'call(aXb)\n',
        'search/notes.md': 'call(a.b) in prose\n',
      };
      for (const [path, text] of Object.entries(files)) {
        expectOk(await client.post('/api/v1/runtimes/write-file', { runtime_id: id(), path, content_base64: toBase64(text) }));
      }
      const globbed = await client.post('/api/v1/runtimes/search', { runtime_id: id(), glob: '*.ts', base_dir: 'search' });
      expectOk(globbed);
      expect(RuntimeSearchResultSchema.parse(globbed.body)).toEqual({ paths: ['search/one.ts', 'search/two.ts'], truncated: false });
      const grepped = await client.post('/api/v1/runtimes/search', {
        runtime_id: id(),
        grep: { query: 'call(a.b)', base_dir: 'search', include: '*.ts' },
      });
      expectOk(grepped);
      expect(grepped.body).toEqual({ matches: [{ path: 'search/one.ts', line: 2, text: 'call(a.b)' }], truncated: false });
      const withMatches = await client.post('/api/v1/runtimes/search', {
        runtime_id: id(),
        grep: { query: 'call(a.b)', base_dir: 'search', mode: 'files_with_matches' },
      });
      expect(withMatches.body).toEqual({ paths: ['search/notes.md', 'search/one.ts'], truncated: false });
      const limited = await client.post('/api/v1/runtimes/search', { runtime_id: id(), glob: '**/*', base_dir: 'search', limit: 1 });
      expect(limited.body).toMatchObject({ truncated: true });
      expect(limited.body.paths).toHaveLength(1);
      expectApiError(
        await client.post('/api/v1/runtimes/search', { runtime_id: id(), glob: '*', grep: { query: 'x' } }),
        400,
        'invalid_request',
      );
    }, testMs);

    test('export streams the bytes as application/octet-stream with content-disposition: attachment', async () => {
      await ready();
      expectOk(await client.post('/api/v1/runtimes/write-file', { runtime_id: id(), path: 'out/report.bin', content_base64: toBase64(ALL_BYTES) }));
      const exported = await client.post('/api/v1/runtimes/export', { runtime_id: id(), path: 'out/report.bin' });
      expect(exported.status).toBe(200);
      expect(exported.headers.get('content-type')).toBe('application/octet-stream');
      expect(exported.headers.get('content-disposition')).toMatch(/^attachment; filename="report\.bin"/);
      expect(Buffer.from(exported.bytes).equals(Buffer.from(ALL_BYTES))).toBe(true);
    }, testMs);

    test('a missing file is 404 path_not_found; bad base64 is 400; an unknown runtime is 404', async () => {
      await ready();
      expectApiError(await client.post('/api/v1/runtimes/read-file', { runtime_id: id(), path: 'nope/missing.txt' }), 404, 'path_not_found');
      expectApiError(await client.post('/api/v1/runtimes/export', { runtime_id: id(), path: 'nope/missing.txt' }), 404, 'path_not_found');
      expectApiError(
        await client.post('/api/v1/runtimes/write-file', { runtime_id: id(), path: 'x', content_base64: '***' }),
        400,
        'invalid_request',
      );
      const ghost = context.runtimeId('never-opened');
      for (const [route, body] of [
        ['exec', { command: 'echo x' }],
        ['read-file', { path: 'x' }],
        ['write-file', { path: 'x', content_base64: toBase64('x') }],
        ['stat', { path: 'x' }],
        ['mkdir', { path: 'x' }],
        ['search', { glob: '*' }],
        ['export', { path: 'x' }],
      ] as const) {
        expectApiError(await client.post(`/api/v1/runtimes/${route}`, { runtime_id: ghost, ...body }), 404, 'runtime_not_found');
      }
    }, testMs);
  });
}
