import { randomBytes } from 'node:crypto';
import type { NodeRecord } from '@runtimectl/core';
import { openPostgresStore } from '@runtimectl/store-postgres';
import { createTestSchema, type TestSchema } from '@runtimectl/testkit/postgres';
import { freePort } from '@runtimectl/testkit/postgres-server';
import { afterEach, describe, expect, it } from 'vitest';
import { squatPort, type PortSquatter } from './port-squatter';
import { runtimedRefusal, startRuntimed, type RuntimedProcess } from './runtimed-process';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function nodesIn(schema: TestSchema): Promise<NodeRecord[]> {
  const store = await openPostgresStore({ url: schema.url, schema: schema.schema });
  try {
    return await store.listNodes();
  } finally {
    await store.close();
  }
}

describe('a daemon whose port a sandbox job took after it stopped', () => {
  it('refuses to start with a line naming the address, and neither registers nor heartbeats in the fleet', async () => {
    const schema = await createTestSchema('squat');
    cleanups.push(() => schema.drop());
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const args = ['--store', 'postgres', '--port', String(port), '--node-id', 'squatted-node', '--advertise-url', url];
    const env = {
      RUNTIMECTL_DATABASE_URL: schema.url,
      RUNTIMECTL_STORE_SCHEMA: schema.schema,
      RUNTIMECTL_FLEET_SECRET: randomBytes(32).toString('hex'),
      RUNTIMECTL_FLEET_LEASE_MS: '60000',
    };
    const first: RuntimedProcess = await startRuntimed(args, env);
    expect(await first.stop()).toBe(0);
    const squatter: PortSquatter = await squatPort(port);
    cleanups.push(() => squatter.stop());
    const [before] = await nodesIn(schema);
    expect(before).toMatchObject({ nodeId: 'squatted-node', advertiseUrl: url });

    const refused = await runtimedRefusal(args, env);

    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(
      new RegExp(`^runtimed: could not start: could not listen on 127\\.0\\.0\\.1:${port}: another process holds that address \\(EADDRINUSE\\); this node did not join the fleet\\n$`),
    );
    // The registry still shows the stopped node's last life: no new start, no heartbeat since.
    expect(await nodesIn(schema)).toEqual([before]);
  });
});
