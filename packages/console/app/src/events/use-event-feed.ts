import { useEffect, useRef, useState } from 'preact/hooks';
import type { ApiClient } from '../api/api-client';
import { type ApiError, toApiError } from '../api/api-error';
import type { RuntimeEvent } from '../api/api-types';
import { followEvents, type StreamState } from '../api/event-stream';
import { FEED_CAPACITY, matchesEventFilter, prependEvents } from './event-feed';
import { loadRecentEvents } from './load-recent-events';

const FIRST_EVENTS = 100;

/**
 * The live feed for the given filters: the last 100 events, then the stream. While paused,
 * arrivals wait in a buffer (capped like the feed) and are shown on resume.
 */
export function useEventFeed(client: ApiClient, types: string, runtimeId: string, paused: boolean) {
  const [feed, setFeed] = useState<RuntimeEvent[]>([]);
  const [error, setError] = useState<ApiError | null>(null);
  const [streamState, setStreamState] = useState<StreamState>('connecting');
  const [waiting, setWaiting] = useState(0);
  const pausedRef = useRef(paused);
  const bufferRef = useRef<RuntimeEvent[]>([]);

  useEffect(() => {
    pausedRef.current = paused;
    if (!paused && bufferRef.current.length > 0) {
      const arrived = bufferRef.current;
      bufferRef.current = [];
      setWaiting(0);
      setFeed((current) => prependEvents(current, arrived));
    }
  }, [paused]);

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    setFeed([]);
    setError(null);
    bufferRef.current = [];
    setWaiting(0);
    async function start() {
      const recent = await loadRecentEvents(client, { types, runtimeId }, FIRST_EVENTS, signal);
      if (signal.aborted) return;
      setFeed(prependEvents([], recent.events));
      await followEvents({
        client,
        signal,
        types: types || undefined,
        runtimeId: runtimeId || undefined,
        afterEventId: recent.lastEventId,
        onState: (state, failure) => {
          setStreamState(state);
          if (failure && state === 'stopped') setError(failure);
        },
        onEvent: (event) => {
          if (!matchesEventFilter(event, types, runtimeId)) return;
          if (pausedRef.current) {
            bufferRef.current = [...bufferRef.current, event].slice(-FEED_CAPACITY);
            setWaiting(bufferRef.current.length);
          } else {
            setFeed((current) => prependEvents(current, [event]));
          }
        },
      });
    }
    start().catch((failure: unknown) => {
      if (!signal.aborted) setError(toApiError(failure));
    });
    return () => controller.abort();
  }, [client, types, runtimeId]);

  return { feed, error, streamState, waiting };
}
