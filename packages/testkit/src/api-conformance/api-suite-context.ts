import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { ErrorBodySchema, ERROR_CODES, type ErrorCode } from '@runtimectl/core';
import { ApiClient, type ApiResponse } from './api-client';
import type { ResolvedApiConformanceOptions } from './api-conformance-options';

/** What every area of the suite shares. */
export interface ApiSuiteContext {
  options: ResolvedApiConformanceOptions;
  client: ApiClient;
  /** A runtime id unique to this run: `ac-<8 hex>-<name>`. */
  runtimeId(name: string): string;
  /** Opens a runtime (on `provider`, default the route-test provider) and expects 200. */
  open(name: string, extra?: Record<string, unknown>): Promise<ApiResponse>;
  /** Writes `text` to `path` in the runtime through write-file, expecting 200. */
  writeText(runtimeId: string, path: string, text: string): Promise<void>;
  /** Reads `path` of the runtime through read-file, expecting 200, as text. */
  readText(runtimeId: string, path: string): Promise<string>;
}

export function createApiSuiteContext(options: ResolvedApiConformanceOptions): ApiSuiteContext {
  const client = new ApiClient(options.baseUrl, options.token);
  const run = randomBytes(4).toString('hex');
  const runtimeId = (name: string) => `ac-${run}-${name}`;
  return {
    options,
    client,
    runtimeId,
    async open(name, extra = {}) {
      const response = await client.post('/api/v1/runtimes/open', {
        runtime_id: runtimeId(name),
        conversation_id: 'conformance',
        sender_id: 'suite',
        ...(options.provider !== undefined ? { provider: options.provider } : {}),
        ...extra,
      });
      expectOk(response);
      return response;
    },
    async writeText(runtimeId, path, text) {
      expectOk(await client.post('/api/v1/runtimes/write-file', { runtime_id: runtimeId, path, content_base64: toBase64(text) }));
    },
    async readText(runtimeId, path) {
      const read = await client.post('/api/v1/runtimes/read-file', { runtime_id: runtimeId, path });
      expectOk(read);
      return fromBase64((read.body as { content_base64: string }).content_base64).toString();
    },
  };
}

/** Expects a 200, showing the error body when it is not one. */
export function expectOk(response: ApiResponse): void {
  expect(response.status, `expected 200, got ${response.status}: ${JSON.stringify(response.body)}`).toBe(200);
}

/**
 * Expects the contract's error response: `status`, body `{error, code, details?}` with exactly
 * these keys and `code`, and an `x-request-id` header.
 */
export function expectApiError(response: ApiResponse, status: number, code: ErrorCode): Record<string, unknown> | undefined {
  expect({ status: response.status, code: response.body?.code }, JSON.stringify(response.body)).toEqual({ status, code });
  const body = ErrorBodySchema.strict().parse(response.body);
  expect(ERROR_CODES).toContain(body.code);
  expect(response.headers.get('x-request-id'), 'x-request-id on an error response').toBeTruthy();
  return body.details;
}

export const toBase64 = (value: string | Uint8Array) => Buffer.from(value).toString('base64');
export const fromBase64 = (value: string) => Buffer.from(value, 'base64');
