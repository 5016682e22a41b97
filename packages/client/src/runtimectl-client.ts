import * as wire from '@runtimectl/core';
import type { z } from 'zod';
import { InvalidRequestError } from './api-errors';
import { eventQueryParams, followEvents, type FollowEventsOptions } from './event-stream';
import { HttpTransport, type TransportOptions } from './http-transport';

export type RuntimectlClientOptions = TransportOptions;

/** A file streamed out of a runtime by `export`. */
export interface ExportedRuntimeFile {
  fileName: string;
  sizeBytes: number | null;
  body: ReadableStream<Uint8Array>;
}

const encodedId = (id: string) => encodeURIComponent(id);

/**
 * Typed client for every route of the runtimectl HTTP API. Requests are checked against the
 * schemas of @runtimectl/core before they are sent (a bad request never leaves the process);
 * responses are parsed with them; failures are error classes carrying the server's code.
 */
export class RuntimectlClient {
  readonly #http: HttpTransport;

  constructor(options: RuntimectlClientOptions) {
    this.#http = new HttpTransport(options);
  }

  get baseUrl(): string {
    return this.#http.baseUrl;
  }

  health(): Promise<wire.HealthResult> {
    return this.#http.json('GET', '/api/v1/health', wire.HealthResultSchema);
  }

  providers(): Promise<wire.ProviderListResult> {
    return this.#http.json('GET', '/api/v1/providers', wire.ProviderListResultSchema);
  }

  /** The nodes of the fleet the daemon belongs to (one, for a single daemon). */
  nodes(): Promise<wire.NodeListResult> {
    return this.#http.json('GET', '/api/v1/nodes', wire.NodeListResultSchema);
  }

  /** A page of the event log (oldest first) after `query.after`, and the last id appended so far. */
  async events(query: wire.EventListQuery = {}): Promise<wire.EventListResult> {
    return this.#http.json('GET', '/api/v1/events', wire.EventListResultSchema, { query: eventQueryParams(query, checked) });
  }

  /** Follows the event log live (SSE), reconnecting with the last id received; see `followEvents`. */
  followEvents(query: wire.EventListQuery = {}, options: FollowEventsOptions = {}): AsyncGenerator<wire.EventView> {
    return followEvents(this.#http, eventQueryParams(query, checked), options);
  }

  /** The daemon's configured webhooks and where each one's delivery stands (never a secret). */
  webhooks(): Promise<wire.WebhookListResult> {
    return this.#http.json('GET', '/api/v1/webhooks', wire.WebhookListResultSchema);
  }

  /** The API keys: configured and stored (never a token nor its hash). Needs an admin key. */
  apiKeys(): Promise<wire.ApiKeyListResult> {
    return this.#http.json('GET', '/api/v1/keys', wire.ApiKeyListResultSchema);
  }

  /**
   * Creates a stored key and resolves its token, which the daemon shows this once. Never retried
   * (the daemon keeps no response that would hold the token): after a lost answer, revoke the
   * name and create it again. Needs an admin key.
   */
  createApiKey(request: wire.ApiKeyCreateRequest): Promise<wire.ApiKeyCreateResult> {
    return this.#http.json('POST', '/api/v1/keys', wire.ApiKeyCreateResultSchema, { body: checked(wire.ApiKeyCreateRequestSchema, request), retries: 0 });
  }

  /** Revokes a stored key: every node refuses it from its next request on. `ApiKeyNotFoundError` for a name no stored key has. */
  revokeApiKey(name: string): Promise<wire.ApiKeyRevokeResult> {
    return this.#http.json('DELETE', `/api/v1/keys/${encodedId(checked(wire.ApiKeyNameSchema, name))}`, wire.ApiKeyRevokeResultSchema);
  }

  /** A page of one webhook's delivery attempts, newest first; `WebhookNotFoundError` for an id the daemon does not have. */
  async webhookDeliveries(webhookId: string, query: wire.WebhookDeliveryListQuery = {}): Promise<wire.WebhookDeliveryListResult> {
    checked(wire.WebhookIdSchema, webhookId);
    const q = checked(wire.WebhookDeliveryListQuerySchema, query);
    return this.#http.json('GET', `/api/v1/webhooks/${encodedId(webhookId)}/deliveries`, wire.WebhookDeliveryListResultSchema, { query: q });
  }

  /** Readiness: resolves while the daemon reaches its store; `StoreUnavailableError` otherwise. */
  ready(): Promise<wire.ReadyResult> {
    return this.#http.json('GET', '/api/v1/ready', wire.ReadyResultSchema);
  }

  open(request: wire.RuntimeOpenRequest): Promise<wire.RuntimeOpenResult> {
    return this.#post('/api/v1/runtimes/open', wire.RuntimeOpenRequestSchema, request, wire.RuntimeOpenResultSchema);
  }

  async list(query: wire.RuntimeListQuery = {}): Promise<wire.RuntimeListResult> {
    const valid = checked(wire.RuntimeListQuerySchema, query);
    return this.#http.json('GET', '/api/v1/runtimes', wire.RuntimeListResultSchema, { query: valid });
  }

  async get(runtimeId: string): Promise<wire.RuntimeDetail> {
    checked(wire.RuntimeIdSchema, runtimeId);
    return this.#http.json('GET', `/api/v1/runtimes/${encodedId(runtimeId)}`, wire.RuntimeDetailSchema);
  }

  update(request: wire.RuntimeUpdateRequest): Promise<wire.RuntimeUpdateResult> {
    return this.#post('/api/v1/runtimes/update', wire.RuntimeUpdateRequestSchema, request, wire.RuntimeUpdateResultSchema);
  }

  exec(request: wire.RuntimeExecRequest): Promise<wire.RuntimeExecResult> {
    return this.#post('/api/v1/runtimes/exec', wire.RuntimeExecRequestSchema, request, wire.RuntimeExecResultSchema);
  }

  /** A runtime's file (`runtime_id`), or a checkpoint's, read from its snapshot without restoring it (`checkpoint_id`). */
  readFile(request: wire.RuntimeReadFileRequest): Promise<wire.RuntimeReadFileResult> {
    return this.#post('/api/v1/runtimes/read-file', wire.RuntimeReadFileRequestSchema, request, wire.RuntimeReadFileResultSchema);
  }

  /** read-file, decoded. */
  async readFileBytes(runtimeId: string, path: string): Promise<Uint8Array> {
    const { content_base64 } = await this.readFile({ runtime_id: runtimeId, path });
    return Buffer.from(content_base64, 'base64');
  }

  writeFile(request: wire.RuntimeWriteFileRequest): Promise<wire.RuntimeWriteFileResult> {
    return this.#post('/api/v1/runtimes/write-file', wire.RuntimeWriteFileRequestSchema, request, wire.RuntimeWriteFileResultSchema);
  }

  /** write-file from bytes or text. */
  writeFileBytes(runtimeId: string, path: string, content: Uint8Array | string): Promise<wire.RuntimeWriteFileResult> {
    const bytes = typeof content === 'string' ? Buffer.from(content) : Buffer.from(content.buffer, content.byteOffset, content.byteLength);
    return this.writeFile({ runtime_id: runtimeId, path, content_base64: bytes.toString('base64') });
  }

  stat(request: wire.RuntimePathRequest): Promise<wire.RuntimeStatResult> {
    return this.#post('/api/v1/runtimes/stat', wire.RuntimePathRequestSchema, request, wire.RuntimeStatResultSchema);
  }

  mkdir(request: wire.RuntimePathRequest): Promise<wire.RuntimeMkdirResult> {
    return this.#post('/api/v1/runtimes/mkdir', wire.RuntimePathRequestSchema, request, wire.RuntimeMkdirResultSchema);
  }

  search(request: wire.RuntimeSearchRequest): Promise<wire.RuntimeSearchResult> {
    return this.#post('/api/v1/runtimes/search', wire.RuntimeSearchRequestSchema, request, wire.RuntimeSearchResultSchema);
  }

  /** Streams a file out of the runtime. */
  async export(request: wire.RuntimeExportRequest): Promise<ExportedRuntimeFile> {
    const body = checked(wire.RuntimeExportRequestSchema, request);
    const response = await this.#http.send('POST', '/api/v1/runtimes/export', { body });
    const disposition = response.headers.get('content-disposition') ?? '';
    const fileName = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1];
    const length = response.headers.get('content-length');
    return {
      fileName: fileName ? decodeURIComponent(fileName) : request.path.split('/').pop()!,
      sizeBytes: length === null ? null : Number(length),
      body: response.body!,
    };
  }

  checkpoint(request: wire.RuntimeCheckpointRequest): Promise<wire.RuntimeCheckpointResult> {
    return this.#post('/api/v1/runtimes/checkpoint', wire.RuntimeCheckpointRequestSchema, request, wire.RuntimeCheckpointResultSchema);
  }

  async listCheckpoints(runtimeId: string, query: wire.CheckpointListQuery = {}): Promise<wire.CheckpointListResult> {
    checked(wire.RuntimeIdSchema, runtimeId);
    const q = checked(wire.CheckpointListQuerySchema, query);
    return this.#http.json('GET', `/api/v1/runtimes/${encodedId(runtimeId)}/checkpoints`, wire.CheckpointListResultSchema, { query: q });
  }

  async getCheckpoint(checkpointId: string): Promise<wire.CheckpointView> {
    checked(wire.CheckpointIdSchema, checkpointId);
    return this.#http.json('GET', `/api/v1/checkpoints/${encodedId(checkpointId)}`, wire.CheckpointViewSchema);
  }

  /**
   * One directory of a checkpoint (`path`, relative; absent: the root) as its content manifest
   * records it, without restoring anything: entries with kind, mode, size and symlink target,
   * a page of at most `limit` (500). Read a file with `readFile({ checkpoint_id, path })`.
   */
  async checkpointTree(checkpointId: string, query: wire.CheckpointTreeQuery = {}): Promise<wire.CheckpointTreeResult> {
    checked(wire.CheckpointIdSchema, checkpointId);
    const q = checked(wire.CheckpointTreeQuerySchema, query);
    return this.#http.json('GET', `/api/v1/checkpoints/${encodedId(checkpointId)}/tree`, wire.CheckpointTreeResultSchema, { query: q });
  }

  /**
   * The changed paths between a checkpoint and another checkpoint (`to_checkpoint_id`) or a
   * runtime's live workspace (`to_runtime_id`): one page, sorted by path, with the summary.
   * `ManifestUnavailableError` when a side has no content manifest.
   */
  diff(request: wire.CheckpointDiffRequest): Promise<wire.CheckpointDiffResult> {
    return this.#post('/api/v1/checkpoints/diff', wire.CheckpointDiffRequestSchema, request, wire.CheckpointDiffResultSchema);
  }

  /**
   * One child (the single shape), or with `count` (1-100) that many, one result each: `{runtime}`
   * or `{error}` — a failed child does not fail the others (the request throws only when none was made).
   */
  checkout(request: wire.RuntimeCheckoutRequest & { count?: undefined }): Promise<wire.RuntimeCheckoutResult>;
  checkout(request: wire.RuntimeCheckoutRequest & { count: number }): Promise<wire.RuntimeCheckoutChildrenResult>;
  checkout(request: wire.RuntimeCheckoutRequest): Promise<wire.RuntimeCheckoutResult | wire.RuntimeCheckoutChildrenResult>;
  checkout(request: wire.RuntimeCheckoutRequest): Promise<wire.RuntimeCheckoutResult | wire.RuntimeCheckoutChildrenResult> {
    const result = request.count === undefined ? wire.RuntimeCheckoutResultSchema : wire.RuntimeCheckoutChildrenResultSchema;
    return this.#post('/api/v1/runtimes/checkout', wire.RuntimeCheckoutRequestSchema, request, result);
  }

  /** Checkpoints the runtime once and checks that checkpoint out `count` ways (default 1), one result per child. */
  fork(request: wire.RuntimeForkRequest): Promise<wire.RuntimeForkResult> {
    return this.#post('/api/v1/runtimes/fork', wire.RuntimeForkRequestSchema, request, wire.RuntimeForkResultSchema);
  }

  pause(request: wire.RuntimePauseRequest): Promise<wire.RuntimePauseResult> {
    return this.#post('/api/v1/runtimes/pause', wire.RuntimePauseRequestSchema, request, wire.RuntimePauseResultSchema);
  }

  resume(request: wire.RuntimeResumeRequest): Promise<wire.RuntimeResumeResult> {
    return this.#post('/api/v1/runtimes/resume', wire.RuntimeResumeRequestSchema, request, wire.RuntimeResumeResultSchema);
  }

  close(request: wire.RuntimeCloseRequest): Promise<wire.RuntimeCloseResult> {
    return this.#post('/api/v1/runtimes/close', wire.RuntimeCloseRequestSchema, request, wire.RuntimeCloseResultSchema);
  }

  deleteCheckpointSnapshot(
    request: wire.RuntimeCheckpointSnapshotDeleteRequest,
  ): Promise<wire.RuntimeCheckpointSnapshotDeleteResult> {
    return this.#post(
      '/api/v1/runtimes/checkpoint/delete-snapshot',
      wire.RuntimeCheckpointSnapshotDeleteRequestSchema,
      request,
      wire.RuntimeCheckpointSnapshotDeleteResultSchema,
    );
  }

  /** Pins a checkpoint (no retention policy deletes its snapshot), or unpins it with `pinned: false`. */
  pinCheckpoint(request: wire.CheckpointPinRequest): Promise<wire.CheckpointPinResult> {
    return this.#post('/api/v1/runtimes/checkpoint/pin', wire.CheckpointPinRequestSchema, request, wire.CheckpointPinResultSchema);
  }

  /** What a retention pass run now would delete, and why, per checkpoint with a snapshot (deletes nothing). */
  async retentionPreview(query: wire.RetentionPreviewQuery = {}): Promise<wire.RetentionPreviewResult> {
    const q = checked(wire.RetentionPreviewQuerySchema, query);
    return this.#http.json('GET', '/api/v1/retention/preview', wire.RetentionPreviewResultSchema, { query: q });
  }

  async #post<Q extends z.ZodType, R extends z.ZodType>(path: string, requestSchema: Q, request: z.input<Q>, resultSchema: R): Promise<z.infer<R>> {
    return this.#http.json('POST', path, resultSchema, { body: checked(requestSchema, request) });
  }
}

/** Validates before sending; a request the daemon would refuse never leaves the process. */
function checked<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new InvalidRequestError({
      code: 'invalid_request',
      status: 0,
      message: `invalid request: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ')}`,
      details: { issues: parsed.error.issues },
    });
  }
  return parsed.data;
}

export function createRuntimectlClient(options: RuntimectlClientOptions): RuntimectlClient {
  return new RuntimectlClient(options);
}
