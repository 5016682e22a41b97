import { createHash } from 'node:crypto';
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
