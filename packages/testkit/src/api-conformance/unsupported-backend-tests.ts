import { describe, expect, test, type TestContext } from 'vitest';
import { ProviderListResultSchema } from '@runtimectl/core';
import { segment } from './api-client';
import { expectApiError, expectOk, type ApiSuiteContext } from './api-suite-context';

/** A provider without snapshots: pause and checkout answer 501 unsupported_backend and change nothing. */
export function unsupportedBackendTests(context: ApiSuiteContext): void {
  const { client, options } = context;
  const testMs = options.timeouts.testMs;
  let discovered: Promise<string | undefined> | undefined;

  /** The named provider, else the first one the daemon declares with neither checkout nor pause. */
  const providerWithoutSnapshots = (ctx: TestContext) =>
    (discovered ??= (async () => {
      if (options.unsupportedProvider !== undefined) return options.unsupportedProvider;
      const listed = ProviderListResultSchema.parse((await client.get('/api/v1/providers')).body).providers;
      return listed.find((entry) => !entry.capabilities.checkout && !entry.capabilities.pause)?.provider;
    })()).then((provider) => {
      if (provider === undefined) ctx.skip('the daemon declares no provider without snapshot support');
      return provider!;
    });

  describe('a provider without snapshots', () => {
    test('pause is 501 unsupported_backend and the runtime stays usable', async (ctx) => {
      const provider = await providerWithoutSnapshots(ctx);
      await context.open('nosnap-pause', { provider });
      const id = context.runtimeId('nosnap-pause');
      const refused = await client.post('/api/v1/runtimes/pause', { runtime_id: id });
      const details = expectApiError(refused, 501, 'unsupported_backend');
      expect(details).toMatchObject({ provider });
      expect((await client.get(`/api/v1/runtimes/${segment(id)}`)).body.runtime.status).toBe('idle');
      expectOk(await client.post('/api/v1/runtimes/exec', { runtime_id: id, command: 'echo still-here' }));
    }, testMs);

    test('checkpoint records no provider snapshot; checkout of it is 501 unsupported_backend and creates nothing', async (ctx) => {
      const provider = await providerWithoutSnapshots(ctx);
      await context.open('nosnap-checkout', { provider });
      const id = context.runtimeId('nosnap-checkout');
      const checkpoint = await client.post('/api/v1/runtimes/checkpoint', { runtime_id: id });
      expectOk(checkpoint);
      const view = await client.get(`/api/v1/checkpoints/${checkpoint.body.checkpoint_id}`);
      expect(view.body).toMatchObject({ has_provider_snapshot: false, provider });

      const refused = await client.post('/api/v1/runtimes/checkout', { checkpoint_id: checkpoint.body.checkpoint_id });
      expectApiError(refused, 501, 'unsupported_backend');
      const children = (await client.listAllRuntimeIds()).filter((runtimeId) => runtimeId.startsWith(`${id}:checkout:`));
      expect(children).toEqual([]);

      const deleted = await client.post('/api/v1/runtimes/checkpoint/delete-snapshot', { checkpoint_id: checkpoint.body.checkpoint_id });
      expectOk(deleted);
      expect(deleted.body).toMatchObject({ provider_snapshot_id: null, deleted_provider_snapshot: false });
    }, testMs);
  });
}
