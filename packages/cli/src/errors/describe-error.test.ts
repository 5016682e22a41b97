import { apiErrorFor, ClientTimeoutError, DaemonUnreachableError } from '@runtimectl/client';
import { ERROR_CODES } from '@runtimectl/core';
import { describe, expect, it } from 'vitest';
import { describeError } from './describe-error';
import { EXIT_CODES, exitCodeForErrorCode } from './exit-codes';
import { ExplainedError } from './explained-error';
import { PartialFailureError } from './partial-failure-error';
import { UsageError } from './usage-error';

const context = { url: 'http://127.0.0.1:7333', tokenGiven: false };

describe('describeError', () => {
  it('gives every daemon error code an exit code: 4 for unknown ids, 5 for every 409 and 429, 2 for invalid requests', () => {
    const byCode = Object.fromEntries(ERROR_CODES.map((code) => [code, exitCodeForErrorCode(code)]));
    expect(byCode).toMatchObject({
      runtime_not_found: 4,
      checkpoint_not_found: 4,
      webhook_not_found: 4,
      api_key_not_found: 4,
      api_key_exists: 5,
      path_not_found: 4,
      session_busy: 5,
      runtime_paused: 5,
      runtime_not_paused: 5,
      runtime_closed: 5,
      runtime_failed: 5,
      runtime_exists: 5,
      snapshot_in_use: 5,
      provider_capacity: 5,
      invalid_request: 2,
      unauthorized: 1,
      internal: 1,
    });
    expect(Object.values(byCode).every((code) => [1, 2, 4, 5].includes(code))).toBe(true);
  });

  it('quotes the server message, code and request id for errors without a special line', () => {
    const error = apiErrorFor({ code: 'provider_error', status: 502, message: 'e2b: createSandbox failed', requestId: 'req-42' });
    expect(describeError(error, context)).toEqual({
      line: 'e2b: createSandbox failed (provider_error) [request req-42]',
      exitCode: 1,
      code: 'provider_error',
      details: {},
      requestId: 'req-42',
    });
  });

  it('says when to retry a provider at capacity', () => {
    const error = apiErrorFor({ code: 'provider_capacity', status: 429, message: 'too many sandboxes', retryAfterMs: 2500 });
    expect(describeError(error, context).line).toBe('too many sandboxes (provider_capacity); retry in 3 s');
  });

  it('names the first differing paths of a failed restore verification on its one line, exit 1', () => {
    const differing = ['a.txt', 'b.txt', 'c.txt', 'd.txt'].map((path) => ({ path, change: 'removed' }));
    const error = apiErrorFor({
      code: 'checkpoint_verification_failed',
      status: 502,
      message: 'the workspace restored from checkpoint rtcp_1 differs from its manifest (4 paths)',
      details: { checkpoint_id: 'rtcp_1', differing_paths: differing, truncated: false },
    });
    const described = describeError(error, context);
    expect(described.exitCode).toBe(1);
    expect(described.line.split('\n')).toHaveLength(1);
    expect(described.line).toContain('(checkpoint_verification_failed: removed a.txt, removed b.txt, removed c.txt, …)');
    expect(described.details).toMatchObject({ differing_paths: differing });
  });

  it('tells a missing token from a refused one', () => {
    const error = apiErrorFor({ code: 'unauthorized', status: 401, message: 'unauthorized' });
    expect(describeError(error, context).line).toContain('requires a bearer token');
    expect(describeError(error, { ...context, tokenGiven: true }).line).toContain('refused the bearer token');
  });

  it('names the id that was not found and the provider that lacks a capability, in the daemon\'s words, never the internal capability name', () => {
    expect(describeError(apiErrorFor({ code: 'runtime_not_found', status: 404, message: 'x', details: { runtime_id: 'r1' } }), context).line).toMatch(/^runtime r1 not found\./);
    expect(
      describeError(apiErrorFor({ code: 'unsupported_backend', status: 501, message: 'provider local does not support checkout', details: { provider: 'local', capability: 'checkout' } }), context).line,
    ).toMatch(/^provider local does not support checkout \(unsupported_backend\)\./);
    const snapshotRead = apiErrorFor({
      code: 'unsupported_backend',
      status: 501,
      message: "provider e2b does not support reading a checkpoint's files without restoring it",
      details: { provider: 'e2b', capability: 'read_snapshot_file' },
    });
    expect(describeError(snapshotRead, context).line).not.toContain('read_snapshot_file');
  });

  it('maps transport failures: unreachable exits 3, a timeout says the operation may have run', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    const unreachable = describeError(new DaemonUnreachableError('http://127.0.0.1:1', refused), context);
    expect(unreachable.exitCode).toBe(EXIT_CODES.unreachable);
    expect(unreachable.line).toMatch(/^the runtimectl daemon is not reachable at http:\/\/127\.0\.0\.1:1 \(ECONNREFUSED\)\. Start it with `runtimed`/);
    const timeout = describeError(new ClientTimeoutError('http://x/api', 1000), context);
    expect(timeout).toEqual({
      line: expect.stringContaining('may still have run'),
      exitCode: 1,
      code: 'client_timeout',
      details: { url: context.url, timeout_ms: 1000 },
    });
    expect(unreachable).toMatchObject({ code: 'daemon_unreachable', details: { url: 'http://127.0.0.1:1' } });
  });

  it('an invalid argument line names the command whose --help to read', () => {
    const refused = apiErrorFor({ code: 'invalid_request', status: 0, message: 'invalid request: runtime_id: a runtime id' });
    expect(describeError(refused, { ...context, command: 'runtimectl checkpoint' }).line).toBe('invalid argument: runtime_id: a runtime id. See `runtimectl checkpoint --help`.');
    const answered = apiErrorFor({ code: 'invalid_request', status: 400, message: 'invalid body: path: too long' });
    expect(describeError(answered, { ...context, command: 'runtimectl webhooks deliveries' }).line).toBe(
      'invalid body: path: too long (invalid_request). See `runtimectl webhooks deliveries --help`.',
    );
    expect(describeError(refused, context).line).toMatch(/See `runtimectl --help`\.$/);
  });

  it('a file too large for read-file points at export, which streams any size', () => {
    const tooLarge = apiErrorFor({ code: 'payload_too_large', status: 413, message: 'big.log is larger than the 4096-byte read-file limit', details: { path: 'big.log', max_bytes: 4096 } });
    expect(describeError(tooLarge, context)).toMatchObject({
      line: "big.log is larger than the 4096-byte read-file limit (payload_too_large). `runtimectl export <runtime> <path>` downloads a runtime's file whatever its size.",
      exitCode: 1,
    });
  });

  it('an error a command explains keeps the daemon\'s code, exit code and request id under the command\'s own line', () => {
    const unsupported = apiErrorFor({ code: 'unsupported_backend', status: 501, message: 'x', details: { capability: 'read_snapshot_file' }, requestId: 'req-7' });
    expect(describeError(new ExplainedError('--patch needs snapshots', unsupported), context)).toEqual({
      line: '--patch needs snapshots',
      exitCode: 1,
      code: 'unsupported_backend',
      details: { capability: 'read_snapshot_file' },
      requestId: 'req-7',
    });
  });

  it('a connection lost during a POST says the operation may have run and how to run it again once', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    const lost = describeError(new DaemonUnreachableError('http://127.0.0.1:1', refused, true, 'k-1.2'), { ...context, idempotencyKey: 'k-1' });
    expect(lost).toMatchObject({ exitCode: 3, code: 'daemon_unreachable', details: { url: 'http://127.0.0.1:1', request_may_have_run: true, idempotency_key: 'k-1' } });
    expect(lost.line).toMatch(/the operation may have run\. Once the daemon is back, run the same command with `--idempotency-key k-1`/);
    expect(lost.line).not.toMatch(/Start it/);
  });

  it('keeps the exit code of the cause when a multi-step command failed halfway', () => {
    const busy = apiErrorFor({ code: 'session_busy', status: 409, message: 'busy', details: { runtime_id: 'r' } });
    expect(describeError(new PartialFailureError('checkpoint rtcp_1 was made, but checking it out failed', busy), context)).toEqual({
      line: 'checkpoint rtcp_1 was made, but checking it out failed: runtime r has an operation in flight (session_busy). Wait for it to finish and retry.',
      exitCode: 5,
      code: 'session_busy',
      details: { runtime_id: 'r', done: 'checkpoint rtcp_1 was made, but checking it out failed' },
    });
    expect(describeError(new UsageError('bad'), context)).toEqual({ line: 'bad', exitCode: 2, code: 'usage', details: {} });
  });
});
