import { MAX_EVENT_PAGE, RUNTIME_EVENT_TYPES, type EventView, type RuntimeEventType } from '@runtimectl/core';
import { TooManyEventStreamsError } from '@runtimectl/client';
import { InvalidArgumentError, type Command } from 'commander';
import type { CliContext } from '../cli-context';
import type { CliIo } from '../cli-io';
import { formatTable } from '../output/format-table';
import { integerIn } from '../options/parse-options';
import { UsageError } from '../errors/usage-error';
import { contextOf, withExamples } from './command-support';

interface EventsOptions {
  runtime?: string;
  type?: RuntimeEventType[];
  after?: number;
  limit?: number;
  follow?: boolean;
  fromStart?: boolean;
}

/** Events per page when --limit is not given (sent, so a full page is known to be one). */
const DEFAULT_PAGE = 100;

const HEADERS = ['EVENT', 'TIME', 'TYPE', 'RUNTIME', 'CHECKPOINT', 'DETAILS'];

/** Repeatable `--type`, each value one type or a comma-separated list. */
function eventTypes(value: string, previous: RuntimeEventType[] | undefined): RuntimeEventType[] {
  const types = value.split(',').map((type) => type.trim()).filter((type) => type !== '');
  for (const type of types) {
    if (!(RUNTIME_EVENT_TYPES as readonly string[]).includes(type)) {
      throw new InvalidArgumentError(`unknown event type "${type}" (one of ${RUNTIME_EVENT_TYPES.join(', ')})`);
    }
  }
  return [...(previous ?? []), ...(types as RuntimeEventType[])];
}

function row(event: EventView): string[] {
  const details = Object.entries(event.data).map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  return [String(event.event_id), new Date(event.at_ms).toISOString(), event.type, event.runtime_id ?? '-', event.checkpoint_id ?? '-', details.join(' ')];
}

/**
 * Where --follow starts: after `--after`, from the first event with --from-start, else after the
 * last event committed so far (now), so a follow shows what happens from here on.
 */
async function followStart(ctx: CliContext, options: EventsOptions): Promise<number> {
  if (options.after !== undefined) return options.after;
  if (options.fromStart) return 0;
  // No event has a greater id: the page is empty and last_event_id is the log's newest.
  const { last_event_id: newest } = await ctx.client.events({ after: Number.MAX_SAFE_INTEGER, limit: 1 });
  ctx.hint(`following events after ${newest} (--from-start replays the log; Ctrl-C stops)`);
  return newest;
}

/** The command that reads the page after `lastEventId`, with the same filters. */
function nextPageCommand(options: EventsOptions, lastEventId: number): string {
  const words = ['runtimectl events'];
  if (options.runtime !== undefined) words.push(`--runtime ${options.runtime}`);
  if (options.type !== undefined) words.push(`--type ${options.type.join(',')}`);
  if (options.limit !== undefined) words.push(`--limit ${options.limit}`);
  return [...words, `--after ${lastEventId}`].join(' ');
}

/** What `--follow` says on stderr before it reopens its stream. */
function reconnectHint(error: unknown, delayMs: number): string {
  if (error instanceof TooManyEventStreamsError) return `the daemon has as many event streams open as it allows; retrying in ${Math.ceil(delayMs / 1000)}s…`;
  return 'event stream broke; reconnecting…';
}

/** Prints events as they come until interrupted: one JSON object per line with --json (NDJSON), else one line each. */
async function follow(ctx: CliContext, query: Parameters<CliContext['client']['followEvents']>[0]): Promise<void> {
  const abort = new AbortController();
  const stop = () => abort.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    for await (const event of ctx.client.followEvents(query, { signal: abort.signal, onReconnect: (error, delayMs) => ctx.hint(reconnectHint(error, delayMs)) })) {
      if (ctx.json) ctx.print(JSON.stringify(event));
      else if (ctx.quiet) ctx.print(String(event.event_id));
      else ctx.print(row(event).filter((cell, index) => index !== 4 || cell !== '-').join('  '));
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

export function registerEventsCommand(program: Command, io: CliIo): void {
  const command = program
    .command('events')
    .description('the event log: lifecycle changes in commit order (opened, checkpoint created, paused, resumed, closed, failed, snapshot deleted…); --follow streams new ones')
    .option('--runtime <id>', 'only events about this runtime')
    .option('--type <types>', `only these types (repeatable or comma-separated): ${RUNTIME_EVENT_TYPES.join(', ')}`, eventTypes)
    .option('--after <event-id>', 'only events after this id (resume where you stopped; with --follow, follow from there)', integerIn(0, Number.MAX_SAFE_INTEGER))
    .option('--limit <n>', `events per page without --follow (default ${DEFAULT_PAGE}, at most ${MAX_EVENT_PAGE})`, integerIn(1, MAX_EVENT_PAGE))
    .option('-f, --follow', 'keep printing events as they are committed, from now on (Ctrl-C stops); with --json one JSON object per line')
    .option('--from-start', 'with --follow: first replay the log from its oldest event')
    .action(async (options: EventsOptions, cmd: Command) => {
      if (options.fromStart && options.after !== undefined) throw new UsageError('events: give --from-start or --after, not both');
      if (options.fromStart && !options.follow) throw new UsageError('events: --from-start goes with --follow (a page starts at the oldest event anyway)');
      const ctx = contextOf(cmd, io);
      const filters = {
        ...(options.runtime === undefined ? {} : { runtime_id: options.runtime }),
        ...(options.type === undefined ? {} : { types: options.type }),
      };
      if (options.follow) return follow(ctx, { ...filters, after: await followStart(ctx, options) });
      const limit = options.limit ?? DEFAULT_PAGE;
      const page = await ctx.client.events({ ...filters, ...(options.after === undefined ? {} : { after: options.after }), limit });
      ctx.emit(page, {
        human: ({ events }) => (events.length === 0 ? 'no events' : formatTable(HEADERS, events.map(row), ctx.colors)),
        quiet: ({ events }) => events.map((event) => String(event.event_id)),
      });
      // A full page may have more behind it (the API's rule: continue after its last event).
      const last = page.events.at(-1);
      if (last && page.events.length === limit) ctx.hint(`more events: ${nextPageCommand(options, last.event_id)}`);
    });
  withExamples(
    command,
    'runtimectl events --runtime demo',
    'runtimectl events --follow --type runtime.failed,snapshot.deleted',
    'runtimectl events --follow --from-start --json | jq .type',
    'runtimectl events --after 1200 --limit 500',
  );
}
