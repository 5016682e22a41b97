import { expect } from 'vitest';
import { MemoryRuntimeStore, ProviderCapabilitiesSchema, providerCapabilities, type RuntimeService } from '@runtimectl/core';
import { conformanceArea } from './conformance-area';
import type { ProviderConformanceOptions } from './conformance-options';
import { base64 } from './expect-helpers';

/**
 * What the provider declares beside its methods — `locality`, `snapshotKind`,
 * `restoreVerification` — as core lists it (`GET /providers`) and acts on it. (The methods'
 * capabilities — snapshot, checkout, pause … — are the snapshot area's.)
 */
export function capabilityTests(options: ProviderConformanceOptions): void {
  conformanceArea(options, 'declared capabilities', ({ harness, options: resolved, test }) => {
    const openRuntime = async (service: RuntimeService, sender: string, verify?: boolean) => {
      const { runtime } = await service.open({ conversation_id: 'conformance', sender_id: sender, ...(verify === undefined ? {} : { verify }) });
      await service.writeFile({ runtime_id: runtime.runtime_id, path: 'state.txt', content_base64: base64('declared') });
      return runtime.runtime_id;
    };

    test('core lists the capabilities its methods and declarations give: snapshot_kind with snapshots only, restore_verification with checkout only', async () => {
      const provider = harness.provider;
      const listed = (await harness.createService().providers()).providers.find((entry) => entry.provider === provider.providerId)?.capabilities;
      expect(ProviderCapabilitiesSchema.parse(listed)).toEqual(providerCapabilities(provider));
      expect(listed!.snapshot_kind).toBe(provider.checkpoint ? (provider.snapshotKind ?? 'filesystem') : null);
      expect(listed!.restore_verification).toBe(provider.checkout ? (provider.restoreVerification ?? 'opt_in') : null);
      expect([undefined, 'node', 'fleet']).toContain(provider.locality);
    });

    test('locality: a runtime gets a home node when backends live on one machine (node), none when every node reaches them (fleet)', async () => {
      const store = new MemoryRuntimeStore();
      const runtimeId = await openRuntime(harness.createService(store), 'locality');
      const home = (await store.getSession(runtimeId))?.homeNodeId ?? null;
      if (harness.provider.locality === 'fleet') expect(home).toBeNull();
      else expect(typeof home, 'the home node of a runtime whose backend lives on this machine').toBe('string');
    });

    test('locality fleet: a backend one provider made is attached by another from the factory, as another node would', async (context) => {
      context.skip(harness.provider.locality !== 'fleet', `provider ${harness.provider.providerId} keeps backends on the machine that made them (locality node), so this does not apply`);
      const { backend, request } = await harness.createBackend();
      await backend.writeBytes('made-here.txt', new TextEncoder().encode('one node'));
      const other = await resolved.createProvider();
      const { provider, cleanup } = 'specificationVersion' in other ? { provider: other, cleanup: undefined } : other;
      try {
        const attached = await provider.attach(request);
        expect(new TextDecoder().decode(await attached.readBytes('made-here.txt'))).toBe('one node');
      } finally {
        await cleanup?.();
      }
    });

    test("snapshotKind filesystem: a checkout starts with nothing running, though a job ran at the checkpoint", async (context) => {
      const provider = harness.provider;
      context.skip(!provider.checkpoint || !provider.checkout, 'needs checkpoint and checkout methods');
      context.skip((provider.snapshotKind ?? 'filesystem') !== 'filesystem', 'memory snapshots keep processes: what they keep is the provider\'s to prove');
      context.skip(!resolved.capabilities.posixShell, 'needs a POSIX shell to leave a job running');
      const { backend, request } = await harness.createBackend();
      context.skip(!backend.backgroundProcesses, `provider ${provider.providerId} cannot count processes (no backgroundProcesses), so this does not apply`);
      await backend.exec({ command: '(sleep 60) > /dev/null 2>&1 &', maxOutputBytes: 1024, timeoutMs: 10_000 });
      context.skip((await backend.backgroundProcesses!()) === null, `provider ${provider.providerId} cannot count processes here`);
      const snapshot = await provider.checkpoint!(backend, { labels: harness.snapshotLabels(request) });
      const { backend: child } = await harness.checkoutBackend(snapshot.snapshotId);
      expect(await child.backgroundProcesses!(), 'processes running in the checkout').toBe(0);
    });

    test('restoreVerification: a checkout through core is verified unasked exactly when the provider says default, and always when the runtime asks', async (context) => {
      const provider = harness.provider;
      context.skip(!provider.checkpoint || !provider.checkout, 'needs checkpoint and checkout methods');
      const { backend } = await harness.createBackend();
      context.skip(!backend.manifest, `provider ${provider.providerId} has no manifest method: restores cannot be verified, so this does not apply`);
      const outcomes: string[] = [];
      const service = harness.createService(new MemoryRuntimeStore(), { restoreVerification: (event) => void outcomes.push(event.outcome) });
      const checkoutOf = async (verify?: boolean) => {
        const runtimeId = await openRuntime(service, `verify-${String(verify)}`, verify);
        const { checkpoint_id } = await service.checkpoint({ runtime_id: runtimeId });
        outcomes.length = 0;
        await service.checkout({ checkpoint_id });
        return [...outcomes];
      };
      const byDefault = (provider.restoreVerification ?? 'opt_in') === 'default';
      expect(await checkoutOf(), 'verifications of a checkout nobody asked to verify').toEqual(byDefault ? ['passed'] : []);
      expect(await checkoutOf(true), 'verifications of a checkout the runtime asked to verify').toEqual(['passed']);
      expect(await checkoutOf(false), 'verifications of a checkout the runtime asked not to verify').toEqual([]);
    });
  });
}
