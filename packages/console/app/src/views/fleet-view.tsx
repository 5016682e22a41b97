import { useEffect, useState } from 'preact/hooks';
import { useApiClient } from '../api/api-context';
import { type ApiError, toApiError } from '../api/api-error';
import type { NodeView, RuntimeRecord } from '../api/api-types';
import { getHealth, getReady, listAllRuntimes, listNodes } from '../api/runtimectl-api';
import { ErrorAlert } from '../components/error-alert';
import { usePageTitle } from '../components/page-title';
import { RuntimeStatus } from '../components/runtime-status';
import { NodesTable } from '../fleet/nodes-table';
import { hrefs } from '../router/parse-route';

const REFRESH_INTERVAL_MS = 5_000;

interface FleetSnapshot {
  health: { status: string; version: string } | ApiError;
  ready: { status: string; node_id: string } | ApiError;
  nodes: NodeView[] | ApiError;
  busy: RuntimeRecord[] | ApiError;
  readAtMs: number;
}

async function settle<T>(promise: Promise<T>): Promise<T | ApiError> {
  try {
    return await promise;
  } catch (error) {
    return toApiError(error);
  }
}

const isError = (value: unknown): value is ApiError => value instanceof Error;

/** This daemon's health and readiness, the fleet's nodes, and the runtimes busy right now; refreshed every 5 s while shown. */
export function FleetView() {
  usePageTitle('Fleet');
  const client = useApiClient();
  const [snapshot, setSnapshot] = useState<FleetSnapshot | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    async function refresh() {
      const { signal } = controller;
      const [health, ready, nodes, runtimes] = await Promise.all([
        settle(getHealth(client, signal)),
        settle(getReady(client, signal)),
        settle(listNodes(client, signal)),
        settle(listAllRuntimes(client, signal)),
      ]);
      if (signal.aborted) return;
      const busy = isError(runtimes) ? runtimes : runtimes.filter((runtime) => runtime.status === 'running');
      setSnapshot({ health, ready, nodes, busy, readAtMs: Date.now() });
      timer = setTimeout(refresh, REFRESH_INTERVAL_MS);
    }
    void refresh();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [client]);

  if (!snapshot) {
    return (
      <>
        <h1>Fleet</h1>
        <p>Loading the fleet…</p>
      </>
    );
  }
  const { health, ready, nodes, busy } = snapshot;
  return (
    <>
      <h1>Fleet</h1>
      <section aria-labelledby="this-node-heading">
        <h2 id="this-node-heading">This daemon</h2>
        <dl class="facts">
          <dt>Health</dt>
          <dd>{isError(health) ? `unreachable (${health.code})` : `${health.status}, version ${health.version}`}</dd>
          <dt>Readiness</dt>
          <dd>{isError(ready) ? `not ready (${ready.code}: ${ready.message})` : `${ready.status} (node ${ready.node_id})`}</dd>
        </dl>
      </section>
      <section aria-labelledby="nodes-heading">
        <h2 id="nodes-heading">Nodes</h2>
        {isError(nodes) ? (
          nodes.status === 403 ? <p class="note">Node list needs an admin key.</p> : <ErrorAlert error={nodes} context="Nodes" />
        ) : (
          <NodesTable nodes={nodes} nowMs={snapshot.readAtMs} />
        )}
      </section>
      <section aria-labelledby="leases-heading">
        <h2 id="leases-heading">Leases</h2>
        <p>Runtimes busy now (an operation in flight holds their lease).</p>
        {isError(busy) ? (
          <ErrorAlert error={busy} context="Runtimes" />
        ) : busy.length === 0 ? (
          <p>No runtime is busy.</p>
        ) : (
          <ul class="lease-list">
            {busy.map((runtime) => (
              <li key={runtime.runtime_id}>
                <a href={hrefs.lineage(runtime.runtime_id)} class="mono">
                  {runtime.runtime_id}
                </a>{' '}
                <RuntimeStatus status={runtime.status} /> {runtime.home_node_id ? <span class="mono">on {runtime.home_node_id}</span> : null}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
