import { useMemo, useState } from 'preact/hooks';
import { useApiClient } from '../api/api-context';
import { ErrorAlert } from '../components/error-alert';
import { usePageTitle } from '../components/page-title';
import { useActionRunner } from '../components/use-action-runner';
import { useApiCall } from '../components/use-api-call';
import { useConfirm } from '../components/use-confirm';
import { buildLineageTree, liveNodeId } from '../lineage/build-lineage-tree';
import { CheckpointDetails } from '../lineage/checkpoint-details';
import { gatherLineage } from '../lineage/gather-lineage';
import { layoutLineage } from '../lineage/layout-lineage';
import { snapshotStateOf } from '../lineage/lineage-data';
import { LineageLegend } from '../lineage/lineage-legend';
import { LineageTreeSvg } from '../lineage/lineage-tree-svg';
import { RuntimeActionsPanel } from '../lineage/runtime-actions-panel';
import { lineageActions } from '../lineage/use-lineage-actions';

/** The checkpoint tree of a runtime's whole lineage, with details and actions for what is selected. */
export function LineageView({ runtimeId }: { runtimeId: string }) {
  const client = useApiClient();
  const [reloadCount, setReloadCount] = useState(0);
  const lineage = useApiCall(async (signal) => {
    const data = await gatherLineage(client, runtimeId, signal);
    performance.mark('lineage-data');
    return data;
  }, [client, runtimeId, reloadCount]);
  const data = lineage.data;
  const rootRuntimeId = data?.rootRuntimeId ?? runtimeId;
  usePageTitle(`Lineage of ${rootRuntimeId}`);

  const layout = useMemo(() => (data ? layoutLineage(buildLineageTree(data.rootRuntimeId, data.runtimes, data.checkpoints)) : null), [data]);
  const markContext = useMemo(
    () => ({ verdicts: data?.verdicts ?? null, snapshottingProviders: data?.snapshottingProviders ?? new Set<string>() }),
    [data],
  );

  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [diffFromId, setDiffFromId] = useState<string | null>(null);
  const [actionRuntimeId, setActionRuntimeId] = useState(runtimeId);
  const { confirm, dialog } = useConfirm();
  const refresh = () => setReloadCount((count) => count + 1);
  const checkpointRunner = useActionRunner(refresh);
  const runtimeRunner = useActionRunner(refresh);
  const actions = lineageActions({ client, confirm, checkpointRunner, runtimeRunner, setDiffFromId });

  const selectedNode = selectedId ? layout?.positions.get(selectedId)?.node : undefined;
  const selectedCheckpoint = selectedNode?.kind === 'checkpoint' ? selectedNode.checkpoint : undefined;

  function select(nodeId: string) {
    setSelectedId(nodeId);
    const node = layout?.positions.get(nodeId)?.node;
    if (node?.kind === 'live') setActionRuntimeId(node.runtime.runtime_id);
    if (node?.kind === 'checkpoint') checkpointRunner.say(null);
  }

  return (
    <>
      <h1>Lineage of {rootRuntimeId}</h1>
      {rootRuntimeId !== runtimeId ? (
        <p>
          Showing the whole tree of <code>{runtimeId}</code>, from its root runtime.
        </p>
      ) : null}
      <ErrorAlert error={lineage.error} context="Loading the lineage" />
      {lineage.loading && !data ? <p>Loading the lineage…</p> : null}
      {data && layout ? (
        <div class="lineage-layout">
          <div class="lineage-main">
            <p class="table-count">
              {data.runtimes.length} {data.runtimes.length === 1 ? 'runtime' : 'runtimes'}, {layout.checkpointCount}{' '}
              {layout.checkpointCount === 1 ? 'checkpoint' : 'checkpoints'}
              {lineage.loading ? ' · refreshing…' : ''}
            </p>
            <LineageTreeSvg layout={layout} context={markContext} selectedId={selectedId} diffFromId={diffFromId}
              focusNodeId={liveNodeId(runtimeId)}
              onSelect={select}
            />
            <LineageLegend retentionNote={data.verdicts ? null : 'Retention verdicts are not shown: the retention preview needs an admin key.'} />
          </div>
          <div class="lineage-side">
            {selectedCheckpoint ? (
              <CheckpointDetails
                checkpoint={selectedCheckpoint}
                snapshot={snapshotStateOf(selectedCheckpoint, data.snapshottingProviders)}
                verdict={data.verdicts ? (data.verdicts.get(selectedCheckpoint.checkpoint_id) ?? null) : undefined}
                diffFromId={diffFromId}
                runner={checkpointRunner}
                actions={actions.forCheckpoint(selectedCheckpoint)}
              />
            ) : (
              <p class="hint">Select a checkpoint in the tree (click, or Tab to it and press Enter) to see its details and actions.</p>
            )}
            <RuntimeActionsPanel
              runtimes={data.runtimes}
              selectedRuntimeId={actionRuntimeId}
              onSelectRuntime={setActionRuntimeId}
              runner={runtimeRunner}
              handlers={actions.runtimeHandlers}
            />
          </div>
        </div>
      ) : null}
      {dialog}
    </>
  );
}
