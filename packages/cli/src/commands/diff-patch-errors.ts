import { RuntimectlApiError } from '@runtimectl/client';
import type { CliContext } from '../cli-context';
import { ExplainedError } from '../errors/explained-error';

/**
 * A read-file of a checkpoint's file that `diff --patch` made, refused because the checkpoint's
 * provider cannot read files from its snapshots (`unsupported_backend`, capability
 * `read_snapshot_file`), explained in a user's terms with what still works; any other error as it is.
 */
export async function explainUnreadableSnapshot(
  ctx: CliContext,
  error: unknown,
  from: string,
  target: { to_checkpoint_id: string } | { to_runtime_id: string },
): Promise<unknown> {
  if (!(error instanceof RuntimectlApiError) || error.code !== 'unsupported_backend' || error.details?.['capability'] !== 'read_snapshot_file') return error;
  const provider = String(error.details['provider'] ?? 'the provider');
  const checkpointId = 'to_checkpoint_id' in target && error.message.includes(target.to_checkpoint_id) ? target.to_checkpoint_id : from;
  const snapshots = (await ctx.client.providers().catch(() => undefined))?.providers.find((entry) => entry.provider === provider)?.capabilities.snapshot;
  const why =
    snapshots === false
      ? `checkpoint ${checkpointId} has none: provider ${provider} takes no snapshots`
      : `provider ${provider} cannot read files from its snapshots without restoring them`;
  const other = 'to_checkpoint_id' in target ? target.to_checkpoint_id : `--runtime ${target.to_runtime_id}`;
  const instead =
    snapshots === false
      ? 'for contents, open runtimes on a provider with snapshots (fs): see `runtimectl providers`'
      : `to see a file, check the checkpoint out (\`runtimectl checkout ${checkpointId}\`) and \`runtimectl cat\` it`;
  return new ExplainedError(
    `--patch shows contents read from the checkpoints' snapshots, and ${why}. \`runtimectl diff ${from} ${other} --name-status\` lists what changed; ${instead}.`,
    error,
  );
}
