import { MemoryRuntimeStore, RuntimeService, type RuntimeServiceOptions } from '@runtimectl/core';
import { createMemoryProvider, type MemoryProvider, type MemoryProviderSettings } from '@runtimectl/testkit';

/** A command the memory provider holds open until `release()`: keeps a runtime busy on demand. */
export function createGate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  let entered!: () => void;
  const started = new Promise<void>((resolve) => {
    entered = resolve;
  });
  return { opened, started, enter: () => entered(), release: () => open() };
}

export interface Harness {
  service: RuntimeService;
  provider: MemoryProvider;
  local: MemoryProvider;
  store: MemoryRuntimeStore;
  gate: ReturnType<typeof createGate>;
  open(runtimeId?: string, provider?: string): Promise<string>;
  write(runtimeId: string, path: string, text: string): Promise<void>;
  read(runtimeId: string, path: string): Promise<string>;
}

/**
 * A service over the memory provider (`memory`, with snapshots) and a snapshot-less memory
 * provider standing in for local (`nosnap`). Command `block` waits on `gate`.
 */
export function createHarness(
  options: Partial<RuntimeServiceOptions> & { provider?: MemoryProviderSettings } = {},
): Harness {
  const gate = createGate();
  const execHandler: MemoryProviderSettings['execHandler'] = async (request) => {
    if (request.command !== 'block') return undefined;
    gate.enter();
    await gate.opened;
    return { stdout: 'unblocked\n' };
  };
  const provider = createMemoryProvider({ execHandler, ...options.provider });
  const local = createMemoryProvider({ providerId: 'nosnap', snapshots: false, execHandler });
  const store = new MemoryRuntimeStore();
  const service = new RuntimeService({
    store,
    providers: [provider, local],
    defaultProvider: 'memory',
    ...options,
  });
  return {
    service,
    provider,
    local,
    store,
    gate,
    async open(runtimeId, providerId) {
      const { runtime } = await service.open({
        conversation_id: 'conversation-1',
        sender_id: 'sender-1',
        ...(runtimeId ? { runtime_id: runtimeId } : {}),
        ...(providerId ? { provider: providerId } : {}),
      });
      return runtime.runtime_id;
    },
    async write(runtimeId, path, text) {
      await service.writeFile({ runtime_id: runtimeId, path, content_base64: Buffer.from(text).toString('base64') });
    },
    async read(runtimeId, path) {
      const { content_base64 } = await service.readFile({ runtime_id: runtimeId, path });
      return Buffer.from(content_base64, 'base64').toString();
    },
  };
}

/** Resolves with the error a promise rejects with (fails the test if it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<{ code?: string; message: string; details?: Record<string, unknown>; cause?: unknown }> {
  try {
    await promise;
  } catch (error) {
    return error as { code?: string; message: string; details?: Record<string, unknown>; cause?: unknown };
  }
  throw new Error('expected the operation to fail, but it succeeded');
}
