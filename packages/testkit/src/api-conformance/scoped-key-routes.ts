import type { ApiKeyScope } from '@runtimectl/core';

/** The ids a route call names. */
export interface RouteIds {
  runtimeId: string;
  /** A checkpoint of `runtimeId`, when the suite has a snapshot provider. */
  checkpointId: string | undefined;
}

/** One call of a contract route: what it names, and the scope a key needs for it. */
export interface RouteCall {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  body?: Record<string, unknown>;
  scope: ApiKeyScope;
  /** Which id it names, so a key scoped to other runtimes must find it missing (404). */
  names: 'runtime' | 'checkpoint' | 'nothing';
}

const text = (value: string) => Buffer.from(value).toString('base64');

/**
 * A valid call of every route of the contract (CONTRACT_ROUTES, health aside: it is open), with
 * the scope the specification gives it (docs/http-api.md, API keys). Calls naming a checkpoint
 * are left out without one. Nothing here is sent by a key that may run it, except reads: a key
 * lacking the scope is refused before anything runs, and a key scoped elsewhere finds it missing.
 */
export function routeCalls({ runtimeId, checkpointId }: RouteIds): RouteCall[] {
  const runtime = (path: string, scope: ApiKeyScope, body: Record<string, unknown> = {}): RouteCall => ({ method: 'POST', path, body: { runtime_id: runtimeId, ...body }, scope, names: 'runtime' });
  const checkpoint = (path: string, scope: ApiKeyScope, body: Record<string, unknown> = {}): RouteCall => ({ method: 'POST', path, body: { checkpoint_id: checkpointId, ...body }, scope, names: 'checkpoint' });
  const withCheckpoint: RouteCall[] = checkpointId
    ? [
        { method: 'GET', path: `/api/v1/checkpoints/${encodeURIComponent(checkpointId)}`, scope: 'read', names: 'checkpoint' },
        { method: 'GET', path: `/api/v1/checkpoints/${encodeURIComponent(checkpointId)}/tree`, scope: 'read', names: 'checkpoint' },
        { method: 'POST', path: '/api/v1/checkpoints/diff', body: { from_checkpoint_id: checkpointId, to_runtime_id: runtimeId }, scope: 'read', names: 'checkpoint' },
        checkpoint('/api/v1/runtimes/read-file', 'read', { path: 'note.txt' }),
        checkpoint('/api/v1/runtimes/checkout', 'checkpoint'),
        checkpoint('/api/v1/runtimes/checkpoint/pin', 'checkpoint', { pinned: true }),
        checkpoint('/api/v1/runtimes/checkpoint/delete-snapshot', 'admin'),
      ]
    : [];
  return [
    { method: 'GET', path: '/api/v1/providers', scope: 'read', names: 'nothing' },
    { method: 'GET', path: '/api/v1/runtimes', scope: 'read', names: 'nothing' },
    { method: 'GET', path: '/api/v1/events?limit=1', scope: 'read', names: 'nothing' },
    { method: 'GET', path: `/api/v1/runtimes/${encodeURIComponent(runtimeId)}`, scope: 'read', names: 'runtime' },
    { method: 'GET', path: `/api/v1/runtimes/${encodeURIComponent(runtimeId)}/checkpoints`, scope: 'read', names: 'runtime' },
    runtime('/api/v1/runtimes/read-file', 'read', { path: 'note.txt' }),
    runtime('/api/v1/runtimes/stat', 'read', { path: 'note.txt' }),
    runtime('/api/v1/runtimes/search', 'read', { glob: '*.txt' }),
    runtime('/api/v1/runtimes/export', 'read', { path: 'note.txt' }),
    runtime('/api/v1/runtimes/exec', 'exec', { command: 'echo ran > ran.txt' }),
    runtime('/api/v1/runtimes/write-file', 'exec', { path: 'note.txt', content_base64: text('overwritten') }),
    runtime('/api/v1/runtimes/mkdir', 'exec', { path: 'made' }),
    runtime('/api/v1/runtimes/update', 'checkpoint', { metadata: { touched: 'yes' } }),
    runtime('/api/v1/runtimes/checkpoint', 'checkpoint'),
    runtime('/api/v1/runtimes/fork', 'checkpoint'),
    runtime('/api/v1/runtimes/pause', 'checkpoint'),
    runtime('/api/v1/runtimes/resume', 'checkpoint'),
    runtime('/api/v1/runtimes/close', 'checkpoint'),
    ...withCheckpoint,
    { method: 'GET', path: '/api/v1/retention/preview', scope: 'admin', names: 'nothing' },
    { method: 'GET', path: '/api/v1/webhooks', scope: 'admin', names: 'nothing' },
    { method: 'GET', path: '/api/v1/webhooks/conformance/deliveries', scope: 'admin', names: 'nothing' },
    { method: 'GET', path: '/api/v1/keys', scope: 'admin', names: 'nothing' },
    { method: 'POST', path: '/api/v1/keys', body: { name: 'made-by-a-lesser-key', scopes: ['admin'] }, scope: 'admin', names: 'nothing' },
    { method: 'DELETE', path: '/api/v1/keys/conformance-any', scope: 'admin', names: 'nothing' },
  ];
}

export const describeCall = (call: RouteCall) => `${call.method} ${call.path}${call.body ? ` ${JSON.stringify(call.body)}` : ''}`;
