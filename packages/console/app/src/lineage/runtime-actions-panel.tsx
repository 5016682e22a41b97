import { useState } from 'preact/hooks';
import type { RuntimeRecord } from '../api/api-types';
import { ErrorAlert } from '../components/error-alert';
import { RuntimeStatus } from '../components/runtime-status';
import { StatusMessage } from '../components/status-message';
import type { useActionRunner } from '../components/use-action-runner';

export interface RuntimeActionHandlers {
  checkpoint(runtimeId: string, name: string): void;
  fork(runtimeId: string): void;
  pause(runtimeId: string): void;
  resume(runtimeId: string): void;
  close(runtimeId: string): void;
}

interface RuntimeActionsPanelProps {
  runtimes: RuntimeRecord[];
  selectedRuntimeId: string;
  onSelectRuntime(runtimeId: string): void;
  runner: ReturnType<typeof useActionRunner>;
  handlers: RuntimeActionHandlers;
}

/** Actions on one runtime of the lineage, chosen in a select (the page's runtime by default). */
export function RuntimeActionsPanel({ runtimes, selectedRuntimeId, onSelectRuntime, runner, handlers }: RuntimeActionsPanelProps) {
  const [name, setName] = useState('');
  const runtime = runtimes.find((candidate) => candidate.runtime_id === selectedRuntimeId);
  return (
    <section class="details-panel" aria-labelledby="runtime-actions-heading">
      <h2 id="runtime-actions-heading">Runtime actions</h2>
      <div class="field">
        <label for="action-runtime">Runtime</label>
        <select id="action-runtime" value={selectedRuntimeId} onChange={(event) => onSelectRuntime(event.currentTarget.value)}>
          {runtimes.map((candidate) => (
            <option key={candidate.runtime_id} value={candidate.runtime_id}>
              {candidate.runtime_id} ({candidate.status})
            </option>
          ))}
        </select>
      </div>
      {runtime ? (
        <p>
          Status: <RuntimeStatus status={runtime.status} />
        </p>
      ) : null}
      <form
        class="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          handlers.checkpoint(selectedRuntimeId, name.trim());
          setName('');
        }}
      >
        <div class="field">
          <label for="checkpoint-name">Checkpoint name</label>
          <input id="checkpoint-name" type="text" value={name} placeholder="optional" onInput={(event) => setName(event.currentTarget.value)} />
        </div>
        <button type="submit" disabled={runner.busy}>
          Checkpoint
        </button>
      </form>
      <div class="button-row">
        <button type="button" disabled={runner.busy} onClick={() => handlers.fork(selectedRuntimeId)}>
          Fork
        </button>
        <button type="button" disabled={runner.busy} onClick={() => handlers.pause(selectedRuntimeId)}>
          Pause
        </button>
        <button type="button" disabled={runner.busy} onClick={() => handlers.resume(selectedRuntimeId)}>
          Resume
        </button>
        <button type="button" class="danger" disabled={runner.busy} onClick={() => handlers.close(selectedRuntimeId)}>
          Close
        </button>
      </div>
      <ErrorAlert error={runner.error} context={runner.failedAction} />
      <StatusMessage>{runner.status}</StatusMessage>
    </section>
  );
}
