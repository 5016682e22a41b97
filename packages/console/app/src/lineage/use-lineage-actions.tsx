import type { ApiClient } from '../api/api-client';
import { ApiError } from '../api/api-error';
import type { CheckpointView } from '../api/api-types';
import { runtimeActions } from '../api/runtime-actions';
import type { ConfirmRequest } from '../components/confirm-dialog';
import type { useActionRunner } from '../components/use-action-runner';
import { shortId } from '../format/short-id';
import { hrefs } from '../router/parse-route';
import type { CheckpointActions } from './checkpoint-details';
import type { RuntimeActionHandlers } from './runtime-actions-panel';

interface LineageActionsInput {
  client: ApiClient;
  confirm(request: ConfirmRequest): Promise<boolean>;
  checkpointRunner: ReturnType<typeof useActionRunner>;
  runtimeRunner: ReturnType<typeof useActionRunner>;
  setDiffFromId(checkpointId: string): void;
}

function RuntimeLink({ runtimeId }: { runtimeId: string }) {
  return (
    <a href={hrefs.lineage(runtimeId)} class="mono">
      {runtimeId}
    </a>
  );
}

/** The lineage view's actions: each calls one route, confirms first when it destroys something, and says what happened. */
export function lineageActions(input: LineageActionsInput) {
  const { client, confirm, checkpointRunner, runtimeRunner } = input;

  function forCheckpoint(checkpoint: CheckpointView): CheckpointActions {
    const id = checkpoint.checkpoint_id;
    return {
      checkOut: () =>
        void checkpointRunner.run('Check out', async () => {
          const answer = await runtimeActions.checkout(client, id);
          return (
            <>
              Checked out as <RuntimeLink runtimeId={answer.runtime.runtime_id} />
            </>
          );
        }),
      setPinned: (pinned) =>
        void checkpointRunner.run(pinned ? 'Pin' : 'Unpin', async () => {
          await runtimeActions.pin(client, id, pinned);
          return `${pinned ? 'Pinned' : 'Unpinned'} ${shortId(id)}`;
        }),
      deleteSnapshot: async () => {
        const confirmed = await confirm({
          title: 'Delete this snapshot?',
          text: `The provider snapshot of checkpoint ${id} will be deleted. The checkpoint record stays, but it can no longer be checked out or resumed from. This cannot be undone.`,
          confirmLabel: 'Delete snapshot',
        });
        if (!confirmed) return;
        await checkpointRunner.run('Delete snapshot', async () => {
          await runtimeActions.deleteSnapshot(client, id);
          return `Deleted the snapshot of ${shortId(id)}`;
        });
      },
      diffFromHere: () => {
        input.setDiffFromId(id);
        checkpointRunner.say(`Diff from ${shortId(id)}: select another checkpoint and choose "Diff to here".`);
      },
    };
  }

  const runtimeHandlers: RuntimeActionHandlers = {
    checkpoint: (runtimeId, name) =>
      void runtimeRunner.run('Checkpoint', async () => {
        const answer = await runtimeActions.checkpoint(client, runtimeId, name || undefined);
        return `Checkpoint ${answer.checkpoint_id} created`;
      }),
    fork: (runtimeId) =>
      void runtimeRunner.run('Fork', async () => {
        const answer = await runtimeActions.fork(client, runtimeId);
        const first = answer.results[0];
        if (!first) throw new ApiError(0, 'internal', 'the fork answered no child');
        if ('error' in first) throw new ApiError(0, first.error.code, first.error.message);
        return (
          <>
            Forked as <RuntimeLink runtimeId={first.runtime.runtime_id} />
          </>
        );
      }),
    pause: (runtimeId) =>
      void runtimeRunner.run('Pause', async () => {
        await runtimeActions.pause(client, runtimeId);
        return `Paused ${runtimeId}`;
      }),
    resume: (runtimeId) =>
      void runtimeRunner.run('Resume', async () => {
        await runtimeActions.resume(client, runtimeId);
        return `Resumed ${runtimeId}`;
      }),
    close: async (runtimeId) => {
      const confirmed = await confirm({
        title: 'Close this runtime?',
        text: `Runtime ${runtimeId} will be closed: its sandbox is released and the snapshots only it keeps are deleted. Its checkpoint records stay. This cannot be undone.`,
        confirmLabel: 'Close runtime',
      });
      if (!confirmed) return;
      await runtimeRunner.run('Close', async () => {
        await runtimeActions.close(client, runtimeId);
        return `Closed ${runtimeId}`;
      });
    },
  };

  return { forCheckpoint, runtimeHandlers };
}
