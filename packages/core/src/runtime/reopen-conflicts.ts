import { overrideFromWire, overrideToWire } from '../retention/retention-policy';
import { InvalidRequestError } from '@runtimectl/provider';
import type { SessionRecord } from '../store/records';
import type { RuntimeOpenRequest } from '../wire/runtime-lifecycle';
import { validateProviderOptions } from './provider-options';
import { sameJsonValue } from './same-json-value';
import type { ServiceContext } from './service-context';

/**
 * The fields of a re-open request that contradict the existing runtime. A re-open attaches and
 * changes nothing, so a field it gives must match what the runtime holds (conversation and
 * sender always; provider, provider_options, metadata and session_state when given), or the
 * caller would believe a setting took effect that did not. A field left out never conflicts.
 */
export function reopenConflicts(ctx: ServiceContext, existing: SessionRecord, request: RuntimeOpenRequest): string[] {
  const fields: string[] = [];
  if (request.conversation_id !== existing.conversationId) fields.push('conversation_id');
  if (request.sender_id !== existing.senderId) fields.push('sender_id');
  if (request.provider !== undefined && request.provider !== existing.providerId) fields.push('provider');
  if (request.provider_options !== undefined && !sameProviderOptions(ctx, existing, request.provider_options)) {
    fields.push('provider_options');
  }
  if (request.metadata !== undefined && !sameJsonValue(request.metadata, existing.metadata)) fields.push('metadata');
  if (request.session_state !== undefined && !sameJsonValue(request.session_state, existing.sessionState)) {
    fields.push('session_state');
  }
  // A lifetime counts from the open, so a re-open cannot match one; a time must be the runtime's own.
  if (request.max_lifetime_ms !== undefined) fields.push('max_lifetime_ms');
  if (request.verify !== undefined && request.verify !== (existing.verify ?? null)) fields.push('verify');
  if (request.expires_at_ms !== undefined && request.expires_at_ms !== (existing.expiresAtMs ?? null)) fields.push('expires_at_ms');
  if (request.retention !== undefined && !sameJsonValue(overrideToWire(overrideFromWire(request.retention)), overrideToWire(existing.retention))) {
    fields.push('retention');
  }
  if (request.idle_pause_after_ms !== undefined && request.idle_pause_after_ms !== (existing.idlePauseAfterMs ?? null)) fields.push('idle_pause_after_ms');
  if (request.auto_resume !== undefined && request.auto_resume !== (existing.autoResume ?? null)) fields.push('auto_resume');
  return fields;
}

/** Compared as the runtime's provider parses them (defaults applied); options it refuses differ. */
function sameProviderOptions(ctx: ServiceContext, existing: SessionRecord, requested: Record<string, unknown>): boolean {
  if (!ctx.registry.has(existing.providerId)) return sameJsonValue(requested, existing.providerOptions);
  try {
    return sameJsonValue(validateProviderOptions(ctx.registry.get(existing.providerId), requested), existing.providerOptions);
  } catch (error) {
    if (InvalidRequestError.isInstance(error)) return false;
    throw error;
  }
}
