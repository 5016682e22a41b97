import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { MemoryRuntimeStore, RuntimeService } from '@runtimectl/core';
import { createE2BProvider } from '../src/index';
import { createRequest as requestOf, rejectionOf as rejection, TEST_API_KEY, useEmulator, useProviders } from './support/emulator-fixture';

// The API key must never surface in what the provider produces: not in a message, not in
// details, not anywhere down the cause chain — even when E2B's own answer quotes it.
const emulator = await useEmulator();
const provider = useProviders(emulator);
const createRequest = () => requestOf('secrecy');

/** Everything about an error a log line or an HTTP body could show: messages, details, stacks, causes. */
function everythingAbout(error: unknown): string {
  const parts: string[] = [];
  const seen = new Set<unknown>();
  for (let current: unknown = error; current !== undefined && current !== null && !seen.has(current); current = (current as { cause?: unknown }).cause) {
    seen.add(current);
    parts.push(String(current), inspect(current, { depth: 10, showHidden: true }));
    try {
      parts.push(JSON.stringify(current));
    } catch {
      // Not serialisable: inspect above covered it.
    }
    if (current instanceof Error) parts.push(current.message, current.stack ?? '');
    const details = (current as { details?: unknown }).details;
    if (details !== undefined) parts.push(JSON.stringify(details));
  }
  return parts.join('\n');
}

describe('the API key never leaks', () => {
  it('a 401 from E2B says the key was refused, and neither it nor its causes contain the key', async () => {
    await emulator.failNext('create', { status: 401, message: `Invalid API key: ${TEST_API_KEY}` });
    const error = await rejection(provider().create(createRequest()));
    expect((error as Error).message).toBe('e2b create failed: E2B refused the API key (authentication failed); check the key the e2b provider is configured with');
    expect(everythingAbout(error)).toContain('[redacted]');
    expect(everythingAbout(error)).not.toContain(TEST_API_KEY);
  });

  it('other control-plane and envd errors that quote the key are redacted too', async () => {
    const made = provider();
    await emulator.failNext('create', { status: 500, message: `backend said ${TEST_API_KEY}` });
    const controlPlane = await rejection(made.create(createRequest()));
    expect(everythingAbout(controlPlane)).not.toContain(TEST_API_KEY);
    const backend = await made.create(createRequest());
    await emulator.failNext('files', { status: 500, message: `envd said ${TEST_API_KEY}` });
    const envd = await rejection(backend.readBytes('a.txt'));
    expect((envd as Error).message).toContain('[redacted]');
    expect(everythingAbout(envd)).not.toContain(TEST_API_KEY);
    await made.release({ backendId: 'x', resource: backend.resource });
  });

  it('through core, the runtime error of a refused key carries no key', async () => {
    const service = new RuntimeService({ store: new MemoryRuntimeStore(), providers: [provider()], defaultProvider: 'e2b' });
    await emulator.failNext('create', { status: 401, message: `key ${TEST_API_KEY} unknown` });
    const error = await rejection(service.open({ conversation_id: 'c', sender_id: 's' }));
    expect((error as { code?: string }).code).toBe('provider_error');
    expect(everythingAbout(error)).not.toContain(TEST_API_KEY);
  });

  it('a missing key is refused at construction naming the variable, not a value', () => {
    expect(() => createE2BProvider({ apiKeyEnv: 'RUNTIMECTL_TEST_NO_SUCH_KEY' })).toThrow(
      'createE2BProvider: no E2B API key: the environment variable RUNTIMECTL_TEST_NO_SUCH_KEY is not set or empty',
    );
  });

  it('the key can come from the variable apiKeyEnv names', async () => {
    process.env.RUNTIMECTL_TEST_E2B_KEY = TEST_API_KEY;
    try {
      const made = createE2BProvider({ apiKeyEnv: 'RUNTIMECTL_TEST_E2B_KEY', apiUrl: emulator.apiUrl, sandboxUrl: emulator.sandboxUrl });
      const backend = await made.create(createRequest());
      await made.release({ backendId: 'x', resource: backend.resource });
      made.dispose();
    } finally {
      delete process.env.RUNTIMECTL_TEST_E2B_KEY;
    }
  });
});
