import { createHash } from 'node:crypto';
import type { BackendResource } from '@runtimectl/provider';

/** What a workspace directory may be called: it can never be `.`, `..` or contain a separator. */
const WORKSPACE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * The directory name of a backend's workspace under the provider root. Core's ids (`bkd_<32hex>`)
 * are used as they are, so a human can find the directory; anything else is hashed.
 */
export function workspaceNameOf(backendId: string): string {
  if (WORKSPACE_NAME.test(backendId)) return backendId;
  return `ws-${createHash('sha256').update(backendId).digest('hex').slice(0, 32)}`;
}

export function resourceOf(workspaceName: string): BackendResource {
  return { workspace: workspaceName };
}

/**
 * The workspace name in a persisted resource, or null when the resource is not one of ours (a
 * corrupted or foreign record must never steer a path outside the root).
 */
export function workspaceNameIn(resource: BackendResource): string | null {
  const name = resource.workspace;
  return typeof name === 'string' && WORKSPACE_NAME.test(name) ? name : null;
}
