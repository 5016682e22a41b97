import { randomUUID } from 'node:crypto';
import type { IdempotencyRecord, IdempotencyStore } from '@runtimectl/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorReply } from '../http-errors/error-reply';
import '../route-config';
import { isReplayableStatus, isValidIdempotencyKey, requestFingerprint } from './idempotency-key';

export interface IdempotencyOptions {
  store: IdempotencyStore;
  /** How long a response is kept for replay. Default 24 h. */
  retentionMs?: number;
  /**
   * The owner written in this server's claims: the node id in a fleet. A claim of the same owner
   * that this process is not running was left by an earlier life of it (a restart) and is taken
   * over. Default: an id of its own per process.
   */
  ownerId?: string;
  /**
   * Whether the owner of a claim still in flight is alive (a fleet node whose heartbeat is within
   * its lease): a live owner's claim is left alone (a retry gets 409 `session_busy`), a dead one's
   * is taken over by the retry. Default: every other owner is gone (one daemon per store).
   */
  isOwnerAlive?: (ownerId: string) => Promise<boolean>;
  clock?: () => number;
  /**
   * Largest response body (UTF-8 bytes) kept for replay. A bigger one is recorded as "not kept":
   * a retry gets 410 `idempotent_response_not_kept` and the work is not done again. Default 4 MiB.
   */
  maxResponseBytes?: number;
  /** Bound on all kept records together (`idempotencyRecordBytes`); the oldest are evicted first. Default 128 MiB. */
  maxTotalBytes?: number;
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
const DEFAULT_RETENTION_MS = 24 * 60 * 60 * 1000;
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
const DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
const DEFAULT_MAX_TOTAL_BYTES = 128 * 1024 * 1024;

interface Claim {
  record: IdempotencyRecord;
  settled: () => void;
}

/** Claims by request, across every server in the process (requests are unique objects). */
const claims = new WeakMap<FastifyRequest, Claim>();

/** The request's in-flight Idempotency-Key claim, if it has one (see `operationOptionsOf`). */
export function idempotencyClaimOf(request: FastifyRequest): IdempotencyRecord | undefined {
  return claims.get(request)?.record;
}

function send(reply: FastifyReply, status: number, body: string, replayed: boolean): FastifyReply {
  if (replayed) reply.header(REPLAYED_HEADER, 'true');
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/** What `claimOrAnswer` says once it has sent `reply`. */
const answered = (_reply: FastifyReply): true => true;

function sendError(reply: FastifyReply, ...args: Parameters<typeof errorReply>): FastifyReply {
  const { status, body } = errorReply(...args);
  return reply.code(status).send(body);
}

/**
 * `Idempotency-Key` on the routes marked `idempotent`: the first response is stored; a retry
 * with the same key and body gets it back (`idempotent-replayed: true`) without the work being
 * done again; the same key with another body is refused with 422 `idempotency_key_reused`; a
 * retry that arrives while the first is still running waits for it. Only replayable outcomes are
 * kept (see isReplayableStatus): after a 409/429/5xx the key is released and a retry runs again.
 * Space is bounded: a response over `maxResponseBytes` is recorded without its body (a retry
 * gets 410 `idempotent_response_not_kept`), and after each completion the store evicts the
 * oldest completed records beyond `maxTotalBytes` (their keys then run again, as expired ones do).
 */
export function installIdempotencyHooks(app: FastifyInstance, options: IdempotencyOptions): void {
  const { store } = options;
  const retentionMs = options.retentionMs ?? DEFAULT_RETENTION_MS;
  const ownerId = options.ownerId ?? `daemon-${randomUUID()}`;
  const clock = options.clock ?? Date.now;
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const maxTotalBytes = options.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES;
  const running = new Map<string, Promise<void>>();

  const sweep = setInterval(() => void store.deleteExpiredIdempotencyKeys(clock()).catch(() => {}), SWEEP_INTERVAL_MS);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));

  const isOwnerAlive = options.isOwnerAlive ?? (async () => false);
  /** In flight, and owned by nobody who could still answer it: this process does not run it (checked by the caller), and its owner is this node's earlier life or dead. */
  const isAbandoned = async (existing: IdempotencyRecord): Promise<boolean> =>
    existing.state === 'in_flight' && (existing.ownerId === ownerId || !(await isOwnerAlive(existing.ownerId)));

  /**
   * Claims `key` for `request`; resolves the stored record when another request holds or held it.
   * Requests of this process for one key go to the store one at a time (the `running` entry is
   * set before the store is asked), so an in-flight record this process does not run is never
   * one of its own requests.
   */
  const claimFor = async (request: FastifyRequest, key: string, fingerprint: string): Promise<IdempotencyRecord | undefined> => {
    let settled!: () => void;
    running.set(key, new Promise<void>((resolve) => (settled = resolve)));
    const now = clock();
    const record: IdempotencyRecord = {
      key,
      fingerprint,
      state: 'in_flight',
      ownerId,
      statusCode: null,
      responseBody: null,
      createdAtMs: now,
      expiresAtMs: now + retentionMs,
    };
    try {
      let existing = await store.claimIdempotencyKey(record);
      if (existing && existing.fingerprint === fingerprint && (await isAbandoned(existing))) {
        // Its request never answered: this retry takes the key over and runs — unless a retry on
        // another node took it first (then this one sees that claim, or its outcome, as any retry does).
        existing = (await store.takeOverIdempotencyKey(existing, record)) ? undefined : await store.claimIdempotencyKey(record);
      }
      if (!existing) {
        claims.set(request, { record, settled });
        return undefined;
      }
      running.delete(key);
      settled();
      return existing;
    } catch (error) {
      running.delete(key);
      settled();
      throw error;
    }
  };

  /** Claims the request's key, or answers it (a replay, a refusal); true when it answered. */
  const claimOrAnswer = async (request: FastifyRequest, reply: FastifyReply, key: string | string[]): Promise<boolean> => {
    if (typeof key !== 'string' || !isValidIdempotencyKey(key)) {
      return answered(sendError(reply, 'invalid_request', 'Idempotency-Key must be 1-255 printable characters without spaces'));
    }
    const fingerprint = requestFingerprint(request.method, request.routeOptions.url ?? request.url, request.body);
    for (;;) {
      const first = running.get(key);
      if (first) {
        // A request of this process holds the key: wait for it, then replay or run.
        await first;
        continue;
      }
      const existing = await claimFor(request, key, fingerprint);
      if (!existing) return false;
      if (existing.fingerprint !== fingerprint) {
        return answered(
          sendError(reply, 'idempotency_key_reused', `Idempotency-Key ${key} was already used with a different request`, {
            idempotency_key: key,
          }),
        );
      }
      if (existing.state === 'completed' && existing.responseBody === null) {
        return answered(
          sendError(
            reply,
            'idempotent_response_not_kept',
            `the request with Idempotency-Key ${key} completed (it is not run again), but its response was too large to keep for replay`,
            { idempotency_key: key, status_code: existing.statusCode },
          ),
        );
      }
      if (existing.state === 'completed') return answered(send(reply, existing.statusCode!, existing.responseBody!, true));
      // In flight on another live node (or process): it answers that request; this one may retry.
      return answered(sendError(reply, 'session_busy', `a request with Idempotency-Key ${key} is still in flight`, { idempotency_key: key }));
    }
  };

  // Callback-style hooks: a request without a key (nearly all) passes each one synchronously,
  // without the promise an async hook costs on every request.
  app.addHook('preHandler', (request, reply, done) => {
    const key = request.method === 'POST' && request.routeOptions.config.runtimectl?.idempotent ? request.headers[IDEMPOTENCY_HEADER] : undefined;
    if (key === undefined) {
      done();
      return;
    }
    claimOrAnswer(request, reply, key).then((wasAnswered) => {
      if (!wasAnswered) done();
    }, done);
  });

  const complete = async (request: FastifyRequest, reply: FastifyReply, payload: unknown, claim: Claim): Promise<void> => {
    try {
      if (isReplayableStatus(reply.statusCode) && typeof payload === 'string') {
        const responseBody = Buffer.byteLength(payload) > maxResponseBytes ? null : payload;
        await store.putIdempotencyRecord({ ...claim.record, state: 'completed', statusCode: reply.statusCode, responseBody });
        // The response is kept: a failed eviction only delays the bound to the next completion.
        await store.evictIdempotencyRecords(maxTotalBytes).catch((error: unknown) => request.log.warn({ err: error }, 'idempotency eviction failed'));
      } else {
        await store.deleteIdempotencyKey(claim.record.key);
      }
    } finally {
      running.delete(claim.record.key);
      claim.settled();
    }
  };

  app.addHook('onSend', (request, reply, payload, done) => {
    const claim = claims.get(request);
    if (!claim) {
      done(null, payload);
      return;
    }
    claims.delete(request);
    complete(request, reply, payload, claim).then(() => done(null, payload), done);
  });

  // A request that ends without a response (client gone, aborted) must not hold its key.
  app.addHook('onResponse', (request, _reply, done) => {
    const claim = claims.get(request);
    if (!claim) {
      done();
      return;
    }
    claims.delete(request);
    running.delete(claim.record.key);
    claim.settled();
    store
      .deleteIdempotencyKey(claim.record.key)
      .catch(() => {})
      .then(() => done());
  });
}
