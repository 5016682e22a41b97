/** The shapes of the daemon's HTTP API that the console reads (docs/http-api.md). Fields the daemon adds later are optional here. */

export type RuntimeStatus = 'idle' | 'running' | 'paused' | 'closed' | 'failed' | (string & {});

export interface RuntimeRecord {
  runtime_id: string;
  conversation_id: string;
  sender_id: string;
  status: RuntimeStatus;
  created_at_ms: number;
  updated_at_ms: number;
  provider?: string;
  parent_runtime_id?: string | null;
  forked_from_checkpoint_id?: string | null;
  home_node_id?: string | null;
}

export interface RuntimeDetail {
  runtime: RuntimeRecord;
  provider: string;
  head_checkpoint_id: string | null;
  paused_checkpoint_id: string | null;
  parent_runtime_id: string | null;
  forked_from_checkpoint_id: string | null;
  home_node_id: string | null;
  metadata: Record<string, unknown>;
  last_error?: string | null;
}

export interface CheckpointView {
  checkpoint_id: string;
  runtime_id: string;
  parent_checkpoint_id: string | null;
  kind: 'checkpoint' | 'pause';
  name: string | null;
  metadata: Record<string, unknown>;
  created_at_ms: number;
  provider: string;
  has_provider_snapshot: boolean;
  manifest_root: string | null;
  pinned: boolean;
  last_used_at_ms: number | null;
}

export interface RetentionVerdict {
  checkpoint_id: string;
  runtime_id: string;
  provider: string;
  delete: boolean;
  reasons: string[];
}

export type DiffChange = 'added' | 'removed' | 'modified' | 'mode_changed' | 'type_changed';
export type EntryKind = 'file' | 'directory' | 'symlink';

export interface DiffEntry {
  path: string;
  change: DiffChange;
  old_kind: EntryKind | null;
  new_kind: EntryKind | null;
  old_size: number | null;
  new_size: number | null;
  old_mode?: number | null;
  new_mode?: number | null;
  old_target?: string | null;
  new_target?: string | null;
}

export type DiffSummary = Record<DiffChange, number>;

export interface DiffPage {
  entries: DiffEntry[];
  next_cursor: string | null;
  summary: DiffSummary;
}

export interface TreeEntry {
  name: string;
  kind: EntryKind;
  mode: number;
  size: number;
  target: string | null;
}

export interface RuntimeEvent {
  event_id: number;
  type: string;
  at_ms: number;
  runtime_id: string | null;
  checkpoint_id: string | null;
  data: Record<string, unknown>;
}

export interface NodeView {
  node_id: string;
  advertise_url: string | null;
  version: string;
  started_at_ms: number;
  last_heartbeat_at_ms: number;
  alive: boolean;
  runtimes: number;
}

/** Every page of the list routes: items plus an opaque cursor, null on the last page. */
export interface Page {
  next_cursor: string | null;
}
