import {
  CheckpointNotFoundError,
  ProviderCapacityError,
  RuntimectlError,
  SessionBusyError,
  StoreUnavailableError,
} from '@runtimectl/core';
import { describe, expect, it } from 'vitest';
import { toErrorReply } from './to-error-reply';

describe('toErrorReply', () => {
  it('keeps a core error\'s code, message and details, with the mapped status', () => {
    expect(toErrorReply(new SessionBusyError('rt-1'), 'req-1')).toEqual({
      status: 409,
      body: { error: 'runtime rt-1 is busy: another operation is in flight', code: 'session_busy', details: { runtime_id: 'rt-1' } },
      headers: {},
    });
    expect(toErrorReply(new CheckpointNotFoundError(`rtcp_${'a'.repeat(32)}`), 'req-1').status).toBe(404);
  });

  it('rounds Retry-After up to whole seconds, and sends none when the wait is unknown', () => {
    expect(toErrorReply(new ProviderCapacityError('e2b', 'create', 'limit', 1), 'r').headers).toEqual({ 'retry-after': '1' });
    expect(toErrorReply(new ProviderCapacityError('e2b', 'create', 'limit', 2_000), 'r').headers).toEqual({ 'retry-after': '2' });
    expect(toErrorReply(new ProviderCapacityError('e2b', 'create', 'limit', 2_001), 'r').headers).toEqual({ 'retry-after': '3' });
    expect(toErrorReply(new ProviderCapacityError('e2b', 'create', 'limit'), 'r').headers).toEqual({});
  });

  it('answers an unreachable store with 503 store_unavailable and a Retry-After, never naming the database', () => {
    const reply = toErrorReply(new StoreUnavailableError('connection refused', 1_500), 'r');
    expect(reply).toMatchObject({ status: 503, body: { code: 'store_unavailable', details: { retry_after_ms: 1_500 } } });
    expect(reply.headers).toEqual({ 'retry-after': '2' });
  });

  it('maps fastify\'s own request errors: 413, 415 and bad JSON, 404', () => {
    const fastifyError = (code: string, statusCode: number) => Object.assign(new Error(code), { code, statusCode });
    expect(toErrorReply(fastifyError('FST_ERR_CTP_BODY_TOO_LARGE', 413), 'r').body.code).toBe('payload_too_large');
    expect(toErrorReply(fastifyError('FST_ERR_CTP_INVALID_MEDIA_TYPE', 415), 'r')).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
    expect(toErrorReply(fastifyError('FST_ERR_CTP_INVALID_JSON_BODY', 400), 'r')).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
    expect(toErrorReply(fastifyError('FST_ERR_NOT_FOUND', 404), 'r')).toMatchObject({ status: 404, body: { code: 'route_not_found' } });
  });

  it('answers anything else, even with a 4xx statusCode or a core `internal`, as an opaque 500 naming the request id', () => {
    const opaque = { status: 500, body: { error: 'internal server error', code: 'internal', details: { request_id: 'req-9' } }, headers: {} };
    expect(toErrorReply(new Error('db password=hunter2'), 'req-9')).toEqual(opaque);
    expect(toErrorReply(Object.assign(new Error('teapot'), { statusCode: 418 }), 'req-9')).toEqual(opaque);
    expect(toErrorReply(new RuntimectlError('internal', 'stack at /srv/secret.ts:1'), 'req-9')).toEqual(opaque);
    expect(toErrorReply('a string was thrown', 'req-9')).toEqual(opaque);
    expect(toErrorReply(null, 'req-9')).toEqual(opaque);
  });
});
