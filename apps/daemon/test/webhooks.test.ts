import { createServer, type IncomingHttpHeaders } from 'node:http';
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { verifyWebhookSignature } from '@runtimectl/webhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { runtimedRefusal, startRuntimed, type RuntimedProcess } from './runtimed-process';
import { temporaryDirectory } from './temporary-directory';

const SECRET = 'whsec_daemon_e2e_0123456789abcdef';

/** A receiver that records what it gets and answers 200. */
async function receiver() {
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(200).end('thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/in`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const configFile = (text: string) => {
  const path = join(temporaryDirectory('runtimed-webhooks-'), 'runtimed.toml');
  writeFileSync(path, text);
  return path;
};

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let waited = 0; ; waited += 25) {
    const value = await read();
    if (done(value)) return value;
    if (waited > 30_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('runtimed with [[webhooks]]', () => {
  it('delivers each lifecycle event, signed, to a configured receiver, shows the webhook and its delivery log without the secret, and counts the deliveries in /metrics', async () => {
    const target = await receiver();
    cleanups.push(target.close);
    const config = configFile(`[[webhooks]]\nid = "ops"\nurl = "${target.url}?token=query-secret"\nsecret_env = "OPS_HOOK_SECRET"\nevent_types = ["runtime.opened", "runtime.closed"]\n`);
    const daemon: RuntimedProcess = await startRuntimed(['--provider', 'memory', '--config', config], { OPS_HOOK_SECRET: SECRET });
    cleanups.push(() => daemon.stop());
    const api = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${daemon.url}${path}`, { method, ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}) });
      return { status: response.status, text: await response.text() };
    };

    const opened = JSON.parse((await api('POST', '/api/v1/runtimes/open', { conversation_id: 'c', sender_id: 's' })).text);
    await api('POST', '/api/v1/runtimes/checkpoint', { runtime_id: opened.runtime.runtime_id });
    await api('POST', '/api/v1/runtimes/close', { runtime_id: opened.runtime.runtime_id });
    await until('both events delivered', async () => target.received.length, (count) => count >= 2);
    expect(target.received.map((request) => JSON.parse(request.body).type)).toStrictEqual(['runtime.opened', 'runtime.closed']);
    for (const request of target.received) {
      const header = String(request.headers['runtimectl-signature']);
      expect(verifyWebhookSignature({ secret: SECRET, body: request.body, header, nowSeconds: Math.floor(Date.now() / 1000) })).toBe(true);
    }

    const listed = await until('the cursor to move', async () => JSON.parse((await api('GET', '/api/v1/webhooks')).text), (body) => body.webhooks[0].last_success_at_ms !== null);
    expect(listed.webhooks[0]).toMatchObject({ webhook_id: 'ops', url: target.url, event_types: ['runtime.opened', 'runtime.closed'], failing: false });
    const deliveries = JSON.parse((await api('GET', '/api/v1/webhooks/ops/deliveries')).text);
    expect(deliveries.deliveries.map((delivery: { outcome: string; status_code: number }) => [delivery.outcome, delivery.status_code])).toStrictEqual([
      ['delivered', 200],
      ['delivered', 200],
    ]);
    const metrics = (await api('GET', '/metrics')).text;
    expect(metrics).toContain('runtimectl_webhook_deliveries_total{webhook="ops",outcome="delivered"} 2');
    expect(metrics).toMatch(/^runtimectl_webhook_pending_events\{webhook="ops"\} \d+$/m);
    const everything = JSON.stringify([listed, deliveries]) + daemon.stderr();
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain('query-secret');
    expect(await daemon.stop()).toBe(0);
  });

  it('refuses to start when a webhook’s secret variable is missing, naming the key and the variable', async () => {
    const config = configFile('[[webhooks]]\nid = "ops"\nurl = "https://hooks.example.com/in"\nsecret_env = "OPS_HOOK_SECRET"\n');
    const refused = await runtimedRefusal(['--provider', 'memory', '--config', config]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('webhooks.0.secret_env: environment variable OPS_HOOK_SECRET is not set or empty');
  });
});

describe('a webhook bound to an API key ([[webhooks]] key)', () => {
  it("delivers only what the key may see: its runtime and that runtime's branches, never another runtime's events", async () => {
    const target = await receiver();
    cleanups.push(target.close);
    const agentToken = 'agent-token-for-webhooks-0123456789';
    const { createHash } = await import('node:crypto');
    const config = configFile(
      `[[http.auth.keys]]\nname = "agent"\ntoken_sha256 = "${createHash('sha256').update(agentToken).digest('hex')}"\nscopes = ["exec", "checkpoint"]\nruntimes = ["mine"]\n\n` +
        `[[webhooks]]\nid = "agent-hook"\nurl = "${target.url}"\nsecret_env = "HOOK_SECRET"\nkey = "agent"\n`,
    );
    const adminToken = 'admin-token-for-webhooks-0123456789';
    const daemon = await startRuntimed(['--provider', 'memory', '--config', config], { HOOK_SECRET: SECRET, RUNTIMECTL_HTTP_AUTH_BEARER_TOKEN_ENV: 'ADMIN', ADMIN: adminToken });
    cleanups.push(() => daemon.stop());
    const admin = async (path: string, body: unknown): Promise<any> =>
      (await fetch(`${daemon.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` }, body: JSON.stringify(body) })).json();
    await admin('/api/v1/runtimes/open', { runtime_id: 'theirs', conversation_id: 'c', sender_id: 's' });
    await admin('/api/v1/runtimes/open', { runtime_id: 'mine', conversation_id: 'c', sender_id: 's' });
    const checkpoint = await admin('/api/v1/runtimes/checkpoint', { runtime_id: 'mine' });
    await admin('/api/v1/runtimes/checkpoint', { runtime_id: 'theirs' });
    const branch = (await admin('/api/v1/runtimes/checkout', { checkpoint_id: checkpoint.checkpoint_id })).runtime.runtime_id;
    await admin('/api/v1/runtimes/close', { runtime_id: 'theirs' });
    await admin('/api/v1/runtimes/close', { runtime_id: branch });
    // The branch's close is the last event: once it arrived, everything before it was decided.
    await until('the branch closing delivered', async () => target.received.map((request) => JSON.parse(request.body)), (events) => events.some((event) => event.type === 'runtime.closed' && event.runtime_id === branch));
    const delivered = target.received.map((request) => JSON.parse(request.body) as { runtime_id: string; type: string });
    expect(new Set(delivered.map((event) => event.runtime_id))).toEqual(new Set(['mine', branch]));
    expect(delivered.map((event) => event.type)).toContain('checkpoint.created');
    const listed = (await (await fetch(`${daemon.url}/api/v1/webhooks`, { headers: { authorization: `Bearer ${adminToken}` } })).json()) as { webhooks: unknown[] };
    expect(listed.webhooks[0]).toMatchObject({ webhook_id: 'agent-hook', key: 'agent' });
  });

  it('refuses to start when a webhook names a key the config does not have', async () => {
    const config = configFile(`[[webhooks]]\nid = "x"\nurl = "http://127.0.0.1:9/in"\nsecret = "${SECRET}"\nkey = "nobody"\n`);
    const refusal = await runtimedRefusal(['--provider', 'memory', '--config', config]);
    expect(refusal.stderr).toContain('webhooks.0.key: no [[http.auth.keys]] entry is named nobody');
  });
});
