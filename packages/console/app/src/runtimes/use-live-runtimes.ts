import { useEffect, useState } from 'preact/hooks';
import type { ApiClient } from '../api/api-client';
import { type ApiError, toApiError } from '../api/api-error';
import type { RuntimeDetail, RuntimeRecord } from '../api/api-types';
import { followEvents, type StreamState } from '../api/event-stream';
import { eventPage, getRuntime, listAllRuntimes } from '../api/runtimectl-api';
import { upsertRuntime } from './filter-runtimes';

/** The events after which a runtime's row may have changed. */
export const RUNTIME_EVENT_TYPES = 'runtime.opened,runtime.paused,runtime.resumed,runtime.closed,runtime.failed,checkout.created';

/** A detail answer as a list row: the detail carries the lineage fields at its top level. */
export function recordFromDetail(detail: RuntimeDetail): RuntimeRecord {
  return {
    ...detail.runtime,
    provider: detail.runtime.provider ?? detail.provider,
    parent_runtime_id: detail.runtime.parent_runtime_id ?? detail.parent_runtime_id,
    forked_from_checkpoint_id: detail.runtime.forked_from_checkpoint_id ?? detail.forked_from_checkpoint_id,
    home_node_id: detail.runtime.home_node_id ?? detail.home_node_id,
  };
}

/**
 * Every runtime, kept current: the list is read once (all pages), then each runtime event
 * refetches that runtime's detail, so statuses change and new runtimes appear without a reload.
 */
export function useLiveRuntimes(client: ApiClient) {
  const [runtimes, setRuntimes] = useState<RuntimeRecord[] | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [streamState, setStreamState] = useState<StreamState>('connecting');

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    async function start() {
      // The log's position first, so no change between the list read and the stream is missed.
      const { last_event_id: lastEventId } = await eventPage(client, { limit: 1 }, signal);
      setRuntimes(await listAllRuntimes(client, signal));
      await followEvents({
        client,
        signal,
        types: RUNTIME_EVENT_TYPES,
        afterEventId: lastEventId,
        onState: (state) => setStreamState(state),
        onEvent: (event) => {
          if (!event.runtime_id) return;
          getRuntime(client, event.runtime_id, signal).then(
            (detail) => setRuntimes((current) => upsertRuntime(current ?? [], recordFromDetail(detail))),
            () => undefined,
          );
        },
      });
    }
    start().catch((failure: unknown) => {
      if (!signal.aborted) setError(toApiError(failure));
    });
    return () => controller.abort();
  }, [client]);

  return { runtimes, error, streamState };
}
