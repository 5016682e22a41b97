import { createMemoryProvider, delegatingProvider } from '@runtimectl/testkit';
import { describe, expect, it } from 'vitest';
import { apiClient } from './api-client';
import { parsePrometheusText, sampleValue } from './prometheus-text';
import { createTestServer } from './test-server';

const API = '/api/v1/runtimes';

/** A server over a memory provider whose restores lose every file while `restore.loses` is set. */
async function withLossyRestores() {
  const inner = createMemoryProvider();
  const restore = { loses: false };
  const provider = delegatingProvider(inner, {
    checkout: (request) => (restore.loses ? inner.create(request) : inner.checkout!(request)),
  });
  // The memory provider verifies only when asked: the daemon's verify_restores = "always".
  const server = createTestServer({ providers: [provider], service: { restores: { verify: 'always' } } });
  const api = apiClient(server.app);
  await api.post(`${API}/open`, { runtime_id: 'verified', conversation_id: 'c', sender_id: 's' });
  await api.post(`${API}/write-file`, { runtime_id: 'verified', path: 'src/main.ts', content_base64: Buffer.from('kept').toString('base64') });
  return { server, api, restore };
}

describe('verified restores over HTTP', () => {
  it('a checkout whose restore differs from the manifest answers 502 checkpoint_verification_failed with the differing paths', async () => {
    const { api, restore } = await withLossyRestores();
    const checkpoint = await api.post(`${API}/checkpoint`, { runtime_id: 'verified' });
    restore.loses = true;
    const refused = await api.post(`${API}/checkout`, { checkpoint_id: checkpoint.body.checkpoint_id });
    expect(refused.status).toBe(502);
    expect(refused.body.code).toBe('checkpoint_verification_failed');
    expect(refused.body.details).toEqual({
      checkpoint_id: checkpoint.body.checkpoint_id,
      differing_paths: [
        { path: 'src', change: 'removed' },
        { path: 'src/main.ts', change: 'removed' },
      ],
      truncated: false,
    });
  });

  it('a resume that fails verification leaves the runtime paused; /metrics counts verifications by provider and outcome', async () => {
    const { api, restore } = await withLossyRestores();
    await api.post(`${API}/pause`, { runtime_id: 'verified' });
    restore.loses = true;
    const refused = await api.post(`${API}/resume`, { runtime_id: 'verified' });
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 502, code: 'checkpoint_verification_failed' });
    expect((await api.get(`${API}/verified`)).body.runtime.status).toBe('paused');
    restore.loses = false;
    expect((await api.post(`${API}/resume`, { runtime_id: 'verified' })).status).toBe(200);
    const samples = parsePrometheusText((await api.get('/metrics')).body as string);
    expect(sampleValue(samples, 'runtimectl_restore_verifications_total', { provider: 'memory', outcome: 'failed' })).toBe(1);
    expect(sampleValue(samples, 'runtimectl_restore_verifications_total', { provider: 'memory', outcome: 'passed' })).toBe(1);
  });
});
