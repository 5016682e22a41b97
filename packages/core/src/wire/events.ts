import { z } from 'zod';
import { RUNTIME_EVENT_TYPES } from '../store/event-log';
import { RuntimeIdSchema } from './common';

/** The most events one `GET /events` page answers. */
export const MAX_EVENT_PAGE = 500;

/** `types` as the query string carries it: a comma-separated list of event types. */
const EventTypesSchema = z
  .string()
  .transform((value) => value.split(',').map((type) => type.trim()).filter((type) => type !== ''))
  .pipe(z.array(z.enum(RUNTIME_EVENT_TYPES)).min(1));

export const EventListQuerySchema = z.strictObject({
  /** Events with a greater id only (the SSE stream also takes `Last-Event-ID`). Default 0. */
  after: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  runtime_id: RuntimeIdSchema.optional(),
  types: EventTypesSchema.optional(),
  limit: z.coerce.number().int().min(1).max(MAX_EVENT_PAGE).optional(),
});
export type EventListQuery = z.infer<typeof EventListQuerySchema>;

export const EventViewSchema = z.object({
  event_id: z.number().int().positive(),
  type: z.enum(RUNTIME_EVENT_TYPES),
  at_ms: z.number().int(),
  runtime_id: z.string().nullable(),
  checkpoint_id: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
});
export type EventView = z.infer<typeof EventViewSchema>;

export const EventListResultSchema = z.object({
  events: z.array(EventViewSchema),
  /** The greatest id appended so far: where a reader that saw every event stands. */
  last_event_id: z.number().int().min(0),
});
export type EventListResult = z.infer<typeof EventListResultSchema>;
