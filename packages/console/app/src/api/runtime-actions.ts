import type { ApiClient } from './api-client';
import type { CheckpointView, RuntimeRecord } from './api-types';

/** The mutating routes the console offers; each resolves to the daemon's answer or throws its ApiError. */
export const runtimeActions = {
  checkpoint: (client: ApiClient, runtimeId: string, name?: string) =>
    client.post<{ checkpoint_id: string }>('/runtimes/checkpoint', { runtime_id: runtimeId, ...(name ? { name } : {}) }),
  checkout: (client: ApiClient, checkpointId: string) =>
    client.post<{ runtime: RuntimeRecord }>('/runtimes/checkout', { checkpoint_id: checkpointId }),
  fork: (client: ApiClient, runtimeId: string) =>
    client.post<{ checkpoint_id: string; results: Array<{ runtime: RuntimeRecord } | { error: { code: string; message: string } }> }>(
      '/runtimes/fork',
      { runtime_id: runtimeId },
    ),
  pause: (client: ApiClient, runtimeId: string) => client.post<{ runtime: RuntimeRecord }>('/runtimes/pause', { runtime_id: runtimeId }),
  resume: (client: ApiClient, runtimeId: string) => client.post<{ runtime: RuntimeRecord }>('/runtimes/resume', { runtime_id: runtimeId }),
  close: (client: ApiClient, runtimeId: string) => client.post<{ runtime: RuntimeRecord }>('/runtimes/close', { runtime_id: runtimeId }),
  pin: (client: ApiClient, checkpointId: string, pinned: boolean) =>
    client.post<{ checkpoint: CheckpointView }>('/runtimes/checkpoint/pin', { checkpoint_id: checkpointId, pinned }),
  deleteSnapshot: (client: ApiClient, checkpointId: string) =>
    client.post<{ checkpoint_id: string }>('/runtimes/checkpoint/delete-snapshot', { checkpoint_id: checkpointId }),
};
