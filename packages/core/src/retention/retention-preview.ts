import type { ServiceContext } from '../runtime/service-context';
import type { RetentionPreviewQuery, RetentionPreviewResult } from '../wire/retention';
import { planRetention, snapshotKeyOf } from './retention-plan';
import { readRetentionInput } from './retention-pass';

const DEFAULT_PAGE_LIMIT = 50;

/** The dry run: what a retention pass run now would delete and why, per checkpoint (optionally one runtime's). */
export async function previewRetention(ctx: ServiceContext, query: RetentionPreviewQuery): Promise<RetentionPreviewResult> {
  const verdicts = planRetention(await readRetentionInput(ctx, ctx.clock())).filter((v) => !query.runtime_id || v.runtimeId === query.runtime_id);
  const deleting = verdicts.filter((verdict) => verdict.delete);
  const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
  const after = verdicts.filter((verdict) => query.cursor === undefined || verdict.checkpointId > query.cursor);
  const page = after.slice(0, limit);
  return {
    checkpoints: page.map((verdict) => ({
      checkpoint_id: verdict.checkpointId,
      runtime_id: verdict.runtimeId,
      provider: verdict.providerId,
      delete: verdict.delete,
      reasons: verdict.reasons,
    })),
    next_cursor: after.length > limit ? page.at(-1)!.checkpointId : null,
    summary: {
      snapshots_to_delete: new Set(deleting.map((verdict) => snapshotKeyOf(verdict.providerId, verdict.snapshotId))).size,
      checkpoints_to_clear: deleting.length,
    },
  };
}
