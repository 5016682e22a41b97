import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';

/**
 * What an API key may do (the `scope` a 403 `forbidden` names in `details.scope`). Every key
 * reads what it may see (`read`); `exec` adds commands and file writes; `checkpoint` the
 * lifecycle (open, update, checkpoint, checkout, fork, pause, resume, close, pin); `admin`
 * everything, including delete-snapshot, retention, webhooks, nodes and metrics.
 */
export const API_KEY_SCOPES = ['read', 'exec', 'checkpoint', 'admin'] as const;
export const ApiKeyScopeSchema = z.enum(API_KEY_SCOPES);
export type ApiKeyScope = z.infer<typeof ApiKeyScopeSchema>;

/** SHA-256 of a key's token, 64 lowercase hex digits: all the daemon's configuration holds of it. */
export const tokenSha256 = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/** A new key's token: `rtk_` and 256 random bits in base64url (visible ASCII, one word in a header; the prefix lets a secret scanner recognise a leaked one). */
export const newApiKeyToken = () => `rtk_${randomBytes(32).toString('base64url')}`;

/** A key's name: in logs, in a 403's `details.key`, and what `DELETE /keys/{name}` revokes by. */
export const ApiKeyNameSchema = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, '1-64 letters, digits, dots, dashes or underscores');

/** The runtime scope of a key: runtimes by id, or by conversation (with their checkouts and forks, however deep). */
const ScopeIdsSchema = z.array(z.string().min(1).max(256)).max(10_000);

/** What a key may do and reach, as the config's `[[http.auth.keys]]` and `POST /keys` give it. */
export const ApiKeyGrantSchema = z.strictObject({
  scopes: z.array(ApiKeyScopeSchema).min(1, 'at least one scope'),
  /** From then on (epoch ms) the key is refused with 401. */
  expires_at_ms: z.int().positive().optional(),
  /** Only these runtimes and their branches (checkouts, forks); with conversations, runtimes of either. */
  runtimes: ScopeIdsSchema.optional(),
  /** Only runtimes in these conversations (and their branches); new runtimes may be opened in them. */
  conversations: ScopeIdsSchema.optional(),
  /** The runtimes this key opens (any new one), and their branches: an agent's own runtimes. */
  opened_runtimes: z.boolean().optional(),
});

/** Admin routes span every runtime, so a key scoped to runtimes cannot hold `admin`. */
export const ADMIN_NOT_RUNTIME_SCOPED = {
  check: (key: { scopes: readonly ApiKeyScope[]; runtimes?: readonly string[] | undefined; conversations?: readonly string[] | undefined; opened_runtimes?: boolean | undefined }) =>
    !((key.runtimes || key.conversations || key.opened_runtimes) && key.scopes.includes('admin')),
  message: 'a key scoped to runtimes or conversations cannot be admin (admin routes span every runtime)',
} as const;

/** `POST /api/v1/keys`: a stored key; the daemon makes its token and answers it once. */
export const ApiKeyCreateRequestSchema = ApiKeyGrantSchema.extend({ name: ApiKeyNameSchema }).refine(ADMIN_NOT_RUNTIME_SCOPED.check, { message: ADMIN_NOT_RUNTIME_SCOPED.message });
export type ApiKeyCreateRequest = z.infer<typeof ApiKeyCreateRequestSchema>;

/** A key as `GET /api/v1/keys` shows it: never its token nor the token's hash. */
export const ApiKeyViewSchema = z.object({
  name: z.string(),
  scopes: z.array(ApiKeyScopeSchema),
  expires_at_ms: z.number().int().nullable(),
  /** null: every runtime. */
  runtimes: z.array(z.string()).nullable(),
  /** null: every conversation. */
  conversations: z.array(z.string()).nullable(),
  /** It reaches the runtimes it opened (and their branches). */
  opened_runtimes: z.boolean(),
  /** `config`: from `[[http.auth.keys]]` (or the bearer token), changed by editing the config; `stored`: created with `POST /keys`, revoked with `DELETE /keys/{name}`. */
  source: z.enum(['config', 'stored']),
  /** When a stored key was created; null for a key from the config. */
  created_at_ms: z.number().int().nullable(),
});
export type ApiKeyView = z.infer<typeof ApiKeyViewSchema>;

export const ApiKeyListResultSchema = z.object({ keys: z.array(ApiKeyViewSchema) });
export type ApiKeyListResult = z.infer<typeof ApiKeyListResultSchema>;

export const ApiKeyCreateResultSchema = z.object({
  key: ApiKeyViewSchema,
  /** The key's token: shown this once, never stored (the daemon keeps its SHA-256). */
  token: z.string(),
});
export type ApiKeyCreateResult = z.infer<typeof ApiKeyCreateResultSchema>;

export const ApiKeyRevokeResultSchema = z.object({ revoked: z.literal(true), name: z.string() });
export type ApiKeyRevokeResult = z.infer<typeof ApiKeyRevokeResultSchema>;
