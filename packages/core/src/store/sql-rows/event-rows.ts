import type { NewRuntimeEvent, RuntimeEvent, RuntimeEventType } from '../event-log';
import { fromJson, toJson } from './record-rows';

/** An `events` row as a commit inserts it: the store assigns `event_id`. */
export interface NewEventRow {
  type: string;
  at_ms: number;
  runtime_id: string | null;
  checkpoint_id: string | null;
  /** JSON text. */
  data: string;
}

/** An `events` row as read. A SQL driver may hand a 64-bit id back as a string (pg's bigint). */
export interface EventRow extends NewEventRow {
  event_id: number | string;
}

export function eventToRow(event: NewRuntimeEvent): NewEventRow {
  return { type: event.type, at_ms: event.atMs, runtime_id: event.runtimeId, checkpoint_id: event.checkpointId, data: toJson(event.data, 'event data') };
}

export function eventFromRow(row: EventRow): RuntimeEvent {
  return {
    eventId: Number(row.event_id),
    type: row.type as RuntimeEventType,
    atMs: Number(row.at_ms),
    runtimeId: row.runtime_id,
    checkpointId: row.checkpoint_id,
    data: fromJson<Record<string, unknown>>(row.data),
  };
}
