import { randomBytes } from 'node:crypto';
import { createTestSchema, type TestSchema } from '@runtimectl/testkit/postgres';
import { freePort } from '@runtimectl/testkit/postgres-server';
import { afterEach, describe, expect, it } from 'vitest';
import { callDaemon } from './daemon-http';
import { squatPort } from './port-squatter';
import { startRuntimed, type RuntimedProcess } from './runtimed-process';

const TOKEN = 'fleet-peer-auth-caller-token-4711';
const AUTH = { authorization: `Bearer ${TOKEN}` };

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Node {
  nodeId: string;
  port: number;
  url: string;
  process: RuntimedProcess;
}

/**
 * Two nodes on one PostgreSQL schema, each on the local provider (node-local: a runtime is
 * served by the node that opened it; the other forwards to it). Leases of a minute: a node
 * stopped with SIGTERM still reads as alive to the other for the rest of the test.
 */
async function twoNodes(schema: TestSchema, secret: string): Promise<[Node, Node]> {
  const start = async (nodeId: string): Promise<Node> => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const process = await startRuntimed(['--store', 'postgres', '--provider', 'local', '--port', String(port), '--node-id', nodeId, '--advertise-url', url], {
      RUNTIMECTL_DATABASE_URL: schema.url,
      RUNTIMECTL_STORE_SCHEMA: schema.schema,
      RUNTIMECTL_FLEET_SECRET: secret,
      RUNTIMECTL_FLEET_LEASE_MS: '60000',
      RUNTIMECTL_TOKEN: TOKEN,
      RUNTIMECTL_HTTP_AUTH_BEARER_TOKEN_ENV: 'RUNTIMECTL_TOKEN',
    });
    cleanups.push(() => process.stop());
    return { nodeId, port, url, process };
  };
  const a = await start('node-a');
  const b = await start('node-b');
  return [a, b];
}

describe('a fleet node forwarding to a peer', () => {
  it('a squatter at a stopped peer\'s advertised URL never receives the caller\'s token or request, and the caller gets 503 node_unreachable', async () => {
    const schema = await createTestSchema('peer_auth');
    cleanups.push(() => schema.drop());
    const secret = randomBytes(32).toString('hex');
    const [a, b] = await twoNodes(schema, secret);
    const opened = await callDaemon(b.url, '/runtimes/open', { runtime_id: 'on-b', conversation_id: 'c', sender_id: 's' }, AUTH);
    expect(opened.status).toBe(200);
    // Through node-a while node-b runs: forwarded, answered by node-b.
    const forwarded = await callDaemon(a.url, '/runtimes/exec', { runtime_id: 'on-b', command: 'echo served-by-b' }, AUTH);
    expect(forwarded.status).toBe(200);
    expect(Buffer.from(forwarded.body.stdout_base64, 'base64').toString()).toBe('served-by-b\n');

    expect(await b.process.stop()).toBe(0);
    const squatter = await squatPort(b.port);
    cleanups.push(() => squatter.stop());
    const answer = await callDaemon(a.url, '/runtimes/exec', { runtime_id: 'on-b', command: 'echo marker-7d1f0c' }, AUTH);

    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ code: 'node_unreachable', details: { runtime_id: 'on-b', node_id: 'node-b', node_url: b.url } });
    const seen = JSON.stringify(squatter.requests());
    expect(seen).not.toContain(TOKEN);
    expect(seen).not.toContain('marker-7d1f0c');
    expect(seen).not.toContain('on-b');
    expect(seen).not.toContain(secret);
    for (const node of [a, b]) expect(node.process.stderr(), `${node.nodeId}'s log`).not.toContain(secret);
  });
});
