import type { ComponentChild } from 'preact';
import type { CheckpointView, RetentionVerdict } from '../api/api-types';
import { ErrorAlert } from '../components/error-alert';
import { StatusMessage } from '../components/status-message';
import type { useActionRunner } from '../components/use-action-runner';
import { formatTime } from '../format/format-time';
import { shortId } from '../format/short-id';
import { hrefs } from '../router/parse-route';
import { navigate } from '../router/use-hash-route';
import { SNAPSHOT_STATE_TEXT, type SnapshotState } from './lineage-data';

export interface CheckpointActions {
  checkOut(): void;
  setPinned(pinned: boolean): void;
  deleteSnapshot(): void;
  diffFromHere(): void;
}

interface CheckpointDetailsProps {
  checkpoint: CheckpointView;
  snapshot: SnapshotState;
  /** undefined: the preview was not readable; null: the preview does not list it (no snapshot). */
  verdict: RetentionVerdict | null | undefined;
  diffFromId: string | null;
  runner: ReturnType<typeof useActionRunner>;
  actions: CheckpointActions;
}

function Row({ term, children }: { term: string; children: ComponentChild }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </>
  );
}

function retentionText(verdict: RetentionVerdict | null | undefined): string {
  if (verdict === undefined) return 'unknown (retention preview needs an admin key)';
  if (verdict === null) return 'not subject to retention (no snapshot)';
  const reasons = verdict.reasons.length > 0 ? ` (${verdict.reasons.join(', ')})` : '';
  return `${verdict.delete ? 'would delete' : 'keep'}${reasons}`;
}

/** The selected checkpoint: its facts and what can be done with it. */
export function CheckpointDetails({ checkpoint, snapshot, verdict, diffFromId, runner, actions }: CheckpointDetailsProps) {
  const id = checkpoint.checkpoint_id;
  return (
    <aside class="details-panel" aria-label="Checkpoint details">
      <h2>Checkpoint {checkpoint.name || shortId(id)}</h2>
      <dl class="facts">
        <Row term="Id">
          <code>{id}</code>
        </Row>
        <Row term="Kind">{checkpoint.kind}</Row>
        <Row term="Name">{checkpoint.name || '—'}</Row>
        <Row term="Runtime">
          <code>{checkpoint.runtime_id}</code>
        </Row>
        <Row term="Created">{formatTime(checkpoint.created_at_ms)}</Row>
        <Row term="Pinned">{checkpoint.pinned ? 'yes' : 'no'}</Row>
        <Row term="Snapshot">{SNAPSHOT_STATE_TEXT[snapshot]}</Row>
        <Row term="Retention">{retentionText(verdict)}</Row>
      </dl>
      <div class="button-row">
        <button type="button" disabled={runner.busy} onClick={actions.checkOut}>
          Check out
        </button>
        <button type="button" disabled={runner.busy} onClick={() => actions.setPinned(!checkpoint.pinned)}>
          {checkpoint.pinned ? 'Unpin' : 'Pin'}
        </button>
        <button type="button" class="danger" disabled={runner.busy} onClick={actions.deleteSnapshot}>
          Delete snapshot
        </button>
        <a class="button-link" href={hrefs.files(id)}>
          Browse files
        </a>
      </div>
      <div class="button-row">
        <button type="button" disabled={!checkpoint.parent_checkpoint_id} onClick={() => navigate(hrefs.diff(checkpoint.parent_checkpoint_id ?? '', id))}>
          Diff with parent
        </button>
        <button type="button" onClick={() => navigate(hrefs.diff(id, `runtime:${checkpoint.runtime_id}`))}>
          Diff with live runtime
        </button>
        <button type="button" onClick={actions.diffFromHere}>
          Diff from here
        </button>
        {diffFromId && diffFromId !== id ? (
          <button type="button" onClick={() => navigate(hrefs.diff(diffFromId, id))}>
            Diff to here
          </button>
        ) : null}
      </div>
      <ErrorAlert error={runner.error} context={runner.failedAction} />
      <StatusMessage>{runner.status}</StatusMessage>
    </aside>
  );
}
