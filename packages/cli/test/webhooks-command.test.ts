import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntimectlClient } from '@runtimectl/client';
import { WebhookDeliveryListResultSchema, WebhookListResultSchema } from '@runtimectl/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliJson } from './cli-process';
import { expectShape } from './expect-shape';
import { startRuntimed, type RuntimedProcess } from './runtimed-process';

let daemon: RuntimedProcess;
let closeReceiver: () => Promise<void>;

beforeAll(async () => {
  // A receiver that refuses the first request, then accepts.
  let requests = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead((requests += 1) === 1 ? 503 : 200).end(requests === 1 ? 'try later' : 'ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closeReceiver = () => new Promise<void>((resolve) => server.close(() => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/in`;
  const config = join(mkdtempSync(join(tmpdir(), 'cli-webhooks-')), 'runtimed.toml');
  writeFileSync(config, `[[webhooks]]\nid = "ops"\nurl = "${url}"\nsecret = "whsec_cli_test_0123456789"\nevent_types = ["runtime.opened"]\nbase_backoff_ms = 10\nmax_backoff_ms = 20\n`);
  daemon = await startRuntimed(['--provider', 'memory', '--config', config]);
  const client = createRuntimectlClient({ baseUrl: daemon.url });
  await client.open({ runtime_id: 'hooked', conversation_id: 'c', sender_id: 's' });
  for (let waited = 0; (await client.webhookDeliveries('ops')).deliveries.length < 2; waited += 25) {
    if (waited > 30_000) throw new Error('the webhook was not delivered');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
});

afterAll(async () => {
  await daemon?.stop();
  await closeReceiver?.();
});

describe('webhooks', () => {
  it('webhooks lists each webhook: id, state, cursor, last success and failure, URL; --json prints the API shape', async () => {
    const listed = expectShape(WebhookListResultSchema, await runCliJson(['webhooks'], { url: daemon.url }));
    expect(listed.webhooks.map((webhook) => [webhook.webhook_id, webhook.failing])).toStrictEqual([['ops', false]]);
    const table = await runCli(['webhooks'], { url: daemon.url });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^WEBHOOK\s+STATE\s+CURSOR\s+LAST SUCCESS\s+LAST FAILURE\s+EVENTS\s+URL\nops\s+ok\s+\d+\s+.+\s+runtime\.opened\s+http:\/\/127\.0\.0\.1:\d+\/in\n$/);
  });

  it('webhooks deliveries ID lists the attempts newest first; an unknown id exits 4 naming it', async () => {
    const page = expectShape(WebhookDeliveryListResultSchema, await runCliJson(['webhooks', 'deliveries', 'ops'], { url: daemon.url }));
    expect(page.deliveries.map((delivery) => [delivery.attempt, delivery.outcome, delivery.status_code])).toStrictEqual([
      [2, 'delivered', 200],
      [1, 'retrying', 503],
    ]);
    const table = await runCli(['webhooks', 'deliveries', 'ops', '--limit', '1'], { url: daemon.url });
    expect(table.stdout).toMatch(/^DELIVERY\s+TIME\s+EVENT\s+ATTEMPT\s+OUTCOME\s+STATUS\s+DURATION\s+RESPONSE\n\d+\s+\S+Z\s+\d+\s+2\s+delivered\s+200\s+\d+ms\s+ok\n/);
    expect(table.stderr).toContain('--cursor');
    const unknown = await runCli(['webhooks', 'deliveries', 'nope'], { url: daemon.url });
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toContain('webhook nope not found');
  });
});
