import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach } from 'vitest';
import {
  MemoryRuntimeStore,
  RuntimeService,
  type BackendAttachRequest,
  type BackendCreateRequest,
  type BackendProviderV1,
  type ProviderBackend,
  type RuntimeServiceObserver,
} from '@runtimectl/core';
import type { ProviderUnderTest, ResolvedConformanceOptions } from './conformance-options';
import { CallDeadline } from './call-deadline';
import { observeProvider, type ObservedProvider, type ProviderCallCounts } from './observed-provider';

/** A backend the harness created directly through the provider, and how to address it again. */
export interface HarnessBackend {
  backend: ProviderBackend;
  /** What core would persist: `resource` has been through JSON, as after a daemon restart. */
  request: BackendAttachRequest;
}

export interface ProviderHarness {
  /** The provider under test behind a call-counting wrapper with the same capabilities. */
  readonly provider: BackendProviderV1;
  readonly calls: ProviderCallCounts;
  /** Creates a backend through the provider; released after the test. */
  createBackend(): Promise<HarnessBackend>;
  /** Creates a backend from a snapshot through the provider's `checkout`; released after the test. */
  checkoutBackend(snapshotId: string): Promise<HarnessBackend>;
  /** A fresh backend id of core's shape (`bkd_<32hex>`). */
  newBackendId(): string;
  /** Ownership labels as core puts them on a snapshot of `request`'s backend (installation `conformance`). */
  snapshotLabels(request: BackendAttachRequest): Record<string, string>;
  /**
   * Whether a fresh backend of the provider answers `backgroundProcesses()` with 0: only then
   * does core ever record a runtime clean (and reuse its snapshot). The backend is released after
   * the test.
   */
  confirmsQuietBackends(): Promise<boolean>;
  /**
   * A `RuntimeService` from core over the provider (default provider), with `store` or a fresh
   * `MemoryRuntimeStore`, reporting to `observer` when given. Every runtime it opened is closed after the test.
   */
  createService(store?: MemoryRuntimeStore, observer?: RuntimeServiceObserver): RuntimeService;
}

interface TestState {
  observed: ObservedProvider;
  cleanup: (() => void | Promise<void>) | undefined;
  backends: BackendAttachRequest[];
  services: RuntimeService[];
}

function unwrap(value: ProviderUnderTest): { provider: BackendProviderV1; cleanup: (() => void | Promise<void>) | undefined } {
  if ('specificationVersion' in value) return { provider: value, cleanup: undefined };
  return { provider: value.provider, cleanup: value.cleanup };
}

export const newBackendId = () => `bkd_${randomBytes(16).toString('hex')}`;

/** The installation id the harness labels everything with (services use it too). */
export const CONFORMANCE_INSTALLATION = 'conformance';

/** Labels as core's backend manager puts them on what it creates. */
function ownershipLabels(backendId: string): Record<string, string> {
  return {
    runtimectl_installation: CONFORMANCE_INSTALLATION,
    runtimectl_runtime_id: `conformance-${backendId.slice(4, 12)}`,
    runtimectl_backend_id: backendId,
  };
}

async function defaultOptions(provider: BackendProviderV1): Promise<Record<string, unknown>> {
  if (!provider.runtimeOptionsSchema) return {};
  return provider.runtimeOptionsSchema.parseAsync({});
}

async function teardown(state: TestState): Promise<void> {
  const failures: unknown[] = [];
  const attempt = async (fn: () => Promise<unknown>) => {
    try {
      await fn();
    } catch (error) {
      failures.push(error);
    }
  };
  for (const service of state.services) {
    const { runtimes } = await service.list({ limit: 500 });
    for (const runtime of runtimes) {
      if (runtime.status !== 'closed') await attempt(() => service.close({ runtime_id: runtime.runtime_id }));
    }
  }
  for (const request of state.backends) await attempt(() => state.observed.provider.release(request));
  const deleteSnapshot = state.observed.provider.deleteSnapshot;
  if (deleteSnapshot) {
    for (const snapshotId of [...state.observed.liveSnapshotIds]) await attempt(() => deleteSnapshot(snapshotId));
  }
  if (state.cleanup) await attempt(async () => state.cleanup!());
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new AggregateError(failures, 'conformance teardown failed');
}

async function start(
  test: TestState,
  make: (provider: BackendProviderV1, request: BackendCreateRequest) => Promise<ProviderBackend>,
): Promise<HarnessBackend> {
  const provider = test.observed.provider;
  const backendId = newBackendId();
  const labels = ownershipLabels(backendId);
  const backend = await make(provider, {
    backendId,
    runtimeId: labels.runtimectl_runtime_id!,
    options: await defaultOptions(provider),
    labels,
  });
  const request: BackendAttachRequest = { backendId, resource: JSON.parse(JSON.stringify(backend.resource)) };
  test.backends.push(request);
  return { backend, request };
}

/**
 * Registers per-test setup and teardown in the enclosing `describe`: each test gets a fresh
 * provider from the factory, whose calls (and its backends') fail naming the call when one is
 * still pending shortly before the test or teardown would time out (`CallDeadline`); afterwards its runtimes are closed, its backends released, its
 * leftover snapshots deleted and the factory's cleanup run — in that order. Teardown failures
 * fail the test (a provider that cannot release is not conformant).
 */
export function useProviderHarness(options: ResolvedConformanceOptions): ProviderHarness {
  let state: TestState | undefined;
  const deadline = new CallDeadline();
  const current = (): TestState => {
    if (!state) throw new Error('the conformance harness is only usable inside a test');
    return state;
  };

  beforeEach(async () => {
    const { provider, cleanup } = unwrap(await options.createProvider());
    state = { observed: observeProvider(provider, deadline), cleanup, backends: [], services: [] };
    // A call still pending when the test is about to time out fails naming the call.
    deadline.start('test', options.timeouts.testMs);
  }, options.timeouts.hookMs);

  afterEach(async () => {
    const finished = state;
    state = undefined;
    deadline.start('teardown', options.timeouts.hookMs);
    if (finished) await teardown(finished);
  }, options.timeouts.hookMs);

  return {
    get provider() {
      return current().observed.provider;
    },
    get calls() {
      return current().observed.calls;
    },
    newBackendId,
    snapshotLabels: (request) => ({
      ...ownershipLabels(request.backendId),
      runtimectl_ref_id: `bcp_${randomBytes(16).toString('hex')}`,
    }),
    createBackend() {
      return start(current(), (provider, request) => provider.create(request));
    },
    checkoutBackend(snapshotId) {
      return start(current(), (provider, request) => {
        if (!provider.checkout) throw new Error(`provider ${provider.providerId} has no checkout method`);
        return provider.checkout({ ...request, snapshotId });
      });
    },
    async confirmsQuietBackends() {
      const { backend } = await start(current(), (provider, request) => provider.create(request));
      return typeof backend.backgroundProcesses === 'function' && (await backend.backgroundProcesses()) === 0;
    },
    createService(store = new MemoryRuntimeStore(), observer) {
      const test = current();
      const service = new RuntimeService({
        store,
        providers: [test.observed.provider],
        defaultProvider: test.observed.provider.providerId,
        installationId: CONFORMANCE_INSTALLATION,
        ...(observer ? { observer } : {}),
      });
      test.services.push(service);
      return service;
    },
  };
}
