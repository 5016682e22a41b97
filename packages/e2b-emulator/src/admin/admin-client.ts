/**
 * A typed HTTP client for the admin API of an emulator running in another process
 * (e.g. `e2b-emulator --port N` started by a daemon test). Same surface as the handle.
 */
import type { ControlCallRecord } from '../knobs/call-log.js';
import type { EmulatorOperation } from '../knobs/operations.js';
import {
  ADMIN_PREFIX,
  type DropStreamOptions,
  type EmulatorControls,
  type EmulatorStateView,
  type FailNextOptions,
  type HangNextOptions,
} from './admin-types.js';

/** An admin call that the emulator refused; `status` and `message` come from its `{code, message}` body. */
export class E2BEmulatorAdminError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'E2BEmulatorAdminError';
  }
}

export class E2BEmulatorAdminClient implements EmulatorControls {
  private readonly baseUrl: string;

  /** `baseUrl` is the emulator's URL, e.g. `http://127.0.0.1:49999` (its `apiUrl`). */
  constructor(baseUrl: string) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  async state(): Promise<EmulatorStateView> {
    return (await this.call('GET', '/state')) as EmulatorStateView;
  }

  async callLog(): Promise<ControlCallRecord[]> {
    return ((await this.call('GET', '/call-log')) as { calls: ControlCallRecord[] }).calls;
  }

  async reset(): Promise<void> {
    await this.call('POST', '/reset', {});
  }

  async setLatency(operation: EmulatorOperation, ms: number): Promise<void> {
    await this.setLatencies({ [operation]: ms });
  }

  async setLatencies(latency: Partial<Record<EmulatorOperation, number>>): Promise<void> {
    await this.call('PUT', '/latency', latency);
  }

  async setMaxSandboxes(maxSandboxes: number | null): Promise<void> {
    await this.call('PUT', '/max-sandboxes', { maxSandboxes });
  }

  async failNext(operation: EmulatorOperation, fault: FailNextOptions): Promise<void> {
    await this.call('POST', '/fail', { operation, ...fault });
  }

  async hangNext(operation: EmulatorOperation, fault: HangNextOptions): Promise<void> {
    await this.call('POST', '/hang', { operation, ...fault });
  }

  async dropNextStreams(fault: DropStreamOptions = {}): Promise<void> {
    await this.call('POST', '/drop-stream', fault);
  }

  async expireSandbox(sandboxId: string): Promise<boolean> {
    try {
      await this.call('POST', `/sandboxes/${encodeURIComponent(sandboxId)}/expire`, {});
      return true;
    } catch (error) {
      if (error instanceof E2BEmulatorAdminError && error.status === 404) return false;
      throw error;
    }
  }

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${this.baseUrl}${ADMIN_PREFIX}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const value: unknown = text ? JSON.parse(text) : undefined;
    if (!response.ok) {
      const message = (value as { message?: unknown } | undefined)?.message;
      throw new E2BEmulatorAdminError(response.status, typeof message === 'string' ? message : `HTTP ${response.status}`);
    }
    return value;
  }
}
