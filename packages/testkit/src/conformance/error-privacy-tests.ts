import { expect } from 'vitest';
import { MemoryRuntimeStore, providerCapabilities } from '@runtimectl/core';
import { conformanceArea } from './conformance-area';
import { DEEP_TREE } from './deep-tree';
import type { ProviderConformanceOptions } from './conformance-options';
import { expectRuntimectlError } from './expect-helpers';
import { resourceStrings } from './resource-strings';


/** The messages of `error` and every cause below it: what a log line of the error shows. */
function causeChainText(error: unknown): string {
  const parts: string[] = [];
  for (let current: unknown = error; current instanceof Error && parts.length < 10; current = current.cause) parts.push(current.message);
  return parts.join(' <- ');
}

/**
 * Public error text. Callers speak only of runtime and checkpoint ids: what the provider calls
 * things (sandbox ids, workspace names, snapshot ids) and where they live (absolute paths) never
 * appear in an error message or a runtime's `last_error`. The detail is kept in the error's
 * cause chain, which the daemon logs. Checked through core's `RuntimeService`, as callers get
 * errors: core replaces the text of an error that is not one of its own (a raw `ENAMETOOLONG`
 * naming a host path) with a generic one, so what a provider must keep private is the text of
 * the typed errors it throws.
 */
export function errorPrivacyTests(options: ProviderConformanceOptions): void {
  conformanceArea(options, 'error privacy', ({ harness, test }) => {
    /** A runtime opened through core, its backend's binding as the store holds it, and its workspace root. */
    const openRuntime = async (store: MemoryRuntimeStore, sender: string) => {
      const { runtime } = await harness.createService(store).open({ conversation_id: 'conformance', sender_id: sender });
      const binding = (await store.getSession(runtime.runtime_id))?.backend;
      if (!binding) throw new Error('the runtime was opened without a backend');
      const request = { backendId: binding.backendId, resource: binding.resource };
      const { workspaceRoot } = await harness.provider.attach(request);
      return { runtime_id: runtime.runtime_id, request, workspaceRoot, providerIds: resourceStrings(binding.resource) };
    };

    test('a backend gone after a restart fails the runtime naming no provider id or path; the cause chain keeps them', async () => {
      const store = new MemoryRuntimeStore();
      const { runtime_id, request, workspaceRoot, providerIds } = await openRuntime(store, 'privacy');
      await harness.provider.release(request);

      const restarted = harness.createService(store);
      const error = await expectRuntimectlError(restarted.stat({ runtime_id, path: '.' }), 'runtime_failed');
      const lastError = (await restarted.get(runtime_id)).last_error ?? '';
      expect(lastError).not.toBe('');
      for (const secret of [...providerIds, ...(workspaceRoot === '/' ? [] : [workspaceRoot])]) {
        expect(error.message, 'the error message').not.toContain(secret);
        expect(lastError, 'last_error').not.toContain(secret);
      }
      const logged = causeChainText(error);
      expect(
        providerIds.some((id) => logged.includes(id)),
        `the cause chain names the provider resource for the log (${logged})`,
      ).toBe(true);
    });

    test("file-system errors other than not-found (a file as a parent, a path over PATH_MAX on the host) reach callers through core naming the caller's path, never the workspace's", async (context) => {
      const store = new MemoryRuntimeStore();
      const { runtime_id, workspaceRoot: root, providerIds } = await openRuntime(store, 'privacy-fs');
      const service = harness.createService(store);
      context.skip(root === '/' || root === '', 'the workspace root is "/": an absolute path names nothing private');
      const deep = DEEP_TREE.path;
      const made = await service.exec({ runtime_id, command: DEEP_TREE.buildCommand, timeout_ms: 10_000 });
      context.skip(made.exit_code !== 0, 'needs a POSIX shell to build a directory tree deeper than PATH_MAX');
      await service.writeFile({ runtime_id, path: 'plain-file', content_base64: 'eA==' });
      // Through core, as callers reach the provider: core turns an error that is not one of its
      // own into a generic provider_error (its text goes to the log only), so what is checked is
      // what a provider says in its typed errors (invalid_request, path_not_found …).
      const attempts: Array<[string, () => Promise<unknown>]> = [
        ['stat of a deep path', () => service.stat({ runtime_id, path: deep })],
        ['read of a deep path', () => service.readFile({ runtime_id, path: deep })],
        ['write under a deep path', () => service.writeFile({ runtime_id, path: `${deep.slice(0, -2)}/x`, content_base64: 'AQ==' })],
        ['mkdir of a deep path', () => service.mkdir({ runtime_id, path: deep })],
        ['exec in a deep cwd', () => service.exec({ runtime_id, command: 'true', cwd: deep })],
        ['glob under a deep base', () => service.search({ runtime_id, glob: '*', base_dir: deep, limit: 10 })],
        ['export of a deep path', () => service.export({ runtime_id, path: deep })],
        ['read through a file', () => service.readFile({ runtime_id, path: 'plain-file/x' })],
        ['write through a file', () => service.writeFile({ runtime_id, path: 'plain-file/x/y', content_base64: 'AQ==' })],
        ['mkdir through a file', () => service.mkdir({ runtime_id, path: 'plain-file/x' })],
      ];
      const messages: Array<[string, string]> = [];
      for (const [what, attempt] of attempts) {
        const error = await attempt().then(
          () => undefined,
          (caught: unknown) => caught,
        );
        if (error !== undefined) messages.push([what, error instanceof Error ? error.message : String(error)]);
      }
      // Removing the tree with a command keeps this test about error text, whatever release does with it.
      await service.exec({ runtime_id, command: DEEP_TREE.removeCommand, timeout_ms: 10_000 });
      expect(messages.length, 'at least the operations through a file fail').toBeGreaterThan(0);
      for (const [what, message] of messages) {
        expect(message, `${what}: the error message`).not.toContain(root);
        for (const secret of providerIds) expect(message, `${what}: the error message`).not.toContain(secret);
      }
    });

    test('checkout of a deleted snapshot fails naming no snapshot id', async (context) => {
      const capabilities = providerCapabilities(harness.provider);
      context.skip(!capabilities.snapshot || !capabilities.checkout || !capabilities.delete_snapshot, 'needs checkpoint, checkout and deleteSnapshot methods');
      const { backend, request } = await harness.createBackend();
      const snapshot = await harness.provider.checkpoint!(backend, { labels: harness.snapshotLabels(request) });
      await harness.provider.deleteSnapshot!(snapshot.snapshotId);
      const error = await expectRuntimectlError(harness.checkoutBackend(snapshot.snapshotId), 'provider_error');
      expect(error.message).not.toContain(snapshot.snapshotId);
    });
  });
}
