import { RuntimectlError, type RuntimeService } from '@runtimectl/core';
import type { FastifyInstance } from 'fastify';
import { API_PREFIX } from '../api-prefix';
import { RuntimeScope } from './runtime-scope';

declare module 'fastify' {
  interface FastifyRequest {
    /** The runtimes a key scoped to runtimes may reach (undefined: every runtime). */
    runtimeScope?: RuntimeScope;
  }
}

const OPEN = `${API_PREFIX}/runtimes/open`;
const RUNTIME_FIELDS = ['runtime_id', 'to_runtime_id'] as const;
const CHECKPOINT_FIELDS = ['checkpoint_id', 'from_checkpoint_id', 'to_checkpoint_id'] as const;

const fieldsOf = (value: unknown): Record<string, unknown> => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {});
const stringsOf = (record: Record<string, unknown>, names: readonly string[]) => names.map((name) => record[name]).filter((value): value is string => typeof value === 'string');

/**
 * For a key scoped to runtimes: every runtime and checkpoint a request names (body or path) must
 * be in its scope, or the request is answered as if it were missing (404), before anything runs
 * and before fleet forwarding. `open` may make a runtime the scope lists, or one in a listed
 * conversation, or attach to one in scope; anything else is 403 `forbidden`. Lists and events
 * are filtered by their routes (`request.runtimeScope`).
 */
export function installRuntimeScopeHook(app: FastifyInstance, service: RuntimeService): void {
  app.addHook('preValidation', async (request) => {
    const scoped = request.runtimectlKey?.runtimes;
    if (!scoped) return;
    const scope = new RuntimeScope(service, scoped);
    request.runtimeScope = scope;
    const body = fieldsOf(request.body);
    const params = fieldsOf(request.params);
    if (request.routeOptions.url === OPEN) {
      const [runtimeId] = stringsOf(body, ['runtime_id']);
      const [conversationId] = stringsOf(body, ['conversation_id']);
      if ((await scope.mayOpen(runtimeId, conversationId)) || (runtimeId !== undefined && (await scope.includesRuntime(runtimeId)))) return;
      throw new RuntimectlError('forbidden', `the API key ${request.runtimectlKey!.name} may open only the runtimes it lists, runtimes in its conversations${scope.openedBy === undefined ? '' : ', or new runtimes'}`, {
        details: { scope: 'runtimes', key: request.runtimectlKey!.name },
      });
    }
    for (const id of [...stringsOf(body, RUNTIME_FIELDS), ...stringsOf(params, ['runtime_id'])]) await scope.requireRuntime(id);
    for (const id of [...stringsOf(body, CHECKPOINT_FIELDS), ...stringsOf(params, ['checkpoint_id'])]) await scope.requireCheckpoint(id);
  });
}

/** The items whose runtime the request's scope includes (all of them without a scope). */
export async function inScope<T>(scope: RuntimeScope | undefined, items: readonly T[], runtimeOf: (item: T) => string | null): Promise<T[]> {
  if (!scope) return [...items];
  const kept: T[] = [];
  for (const item of items) {
    const runtimeId = runtimeOf(item);
    if (runtimeId !== null && (await scope.includesRuntime(runtimeId))) kept.push(item);
  }
  return kept;
}
