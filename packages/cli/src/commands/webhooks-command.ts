import { MAX_WEBHOOK_DELIVERY_PAGE, type WebhookDeliveryView, type WebhookView } from '@runtimectl/core';
import type { Command } from 'commander';
import type { CliIo } from '../cli-io';
import type { CliContext } from '../cli-context';
import { integerIn } from '../options/parse-options';
import { formatTable } from '../output/format-table';
import { formatRelativeTime } from '../output/relative-time';
import { contextOf, withExamples } from './command-support';

const when = (atMs: number | null, nowMs: number) => (atMs === null ? '-' : formatRelativeTime(atMs, nowMs));

function webhookRow(webhook: WebhookView, ctx: CliContext, nowMs: number): string[] {
  return [
    webhook.webhook_id,
    webhook.failing ? ctx.colors.red('failing') : ctx.colors.green('ok'),
    String(webhook.after_event_id),
    when(webhook.last_success_at_ms, nowMs),
    when(webhook.last_failure_at_ms, nowMs),
    webhook.event_types?.join(',') ?? 'all',
    webhook.url,
  ];
}

function deliveryRow(delivery: WebhookDeliveryView): string[] {
  return [
    String(delivery.delivery_id),
    new Date(delivery.at_ms).toISOString(),
    String(delivery.event_id),
    String(delivery.attempt),
    delivery.outcome,
    delivery.status_code === null ? (delivery.error_code ?? '-') : String(delivery.status_code),
    `${delivery.duration_ms}ms`,
    (delivery.response_excerpt ?? '-').replace(/\s+/g, ' ').slice(0, 60),
  ];
}

export function registerWebhooksCommand(program: Command, io: CliIo): void {
  const command = program
    .command('webhooks')
    .description('the daemon’s webhooks: failing or ok, cursor in the event log, last success and failure, events sent, URL (never a secret)')
    .action(async (_options: unknown, cmd: Command) => {
      const ctx = contextOf(cmd, io);
      const result = await ctx.client.webhooks();
      const nowMs = ctx.nowMs();
      ctx.emit(result, {
        human: ({ webhooks }) =>
          webhooks.length === 0
            ? 'no webhooks configured ([[webhooks]] in the daemon’s config)'
            : formatTable(['WEBHOOK', 'STATE', 'CURSOR', 'LAST SUCCESS', 'LAST FAILURE', 'EVENTS', 'URL'], webhooks.map((webhook) => webhookRow(webhook, ctx, nowMs)), ctx.colors),
        quiet: ({ webhooks }) => webhooks.map((webhook) => webhook.webhook_id),
      });
    });
  withExamples(command, 'runtimectl webhooks', 'runtimectl webhooks --json | jq -r ".webhooks[] | select(.failing) | .webhook_id"');

  const deliveries = command
    .command('deliveries <webhook-id>')
    .description('a webhook’s delivery attempts, newest first: event, attempt, outcome, status or error code, duration, response excerpt')
    .option('--limit <n>', `attempts per page (default 100, at most ${MAX_WEBHOOK_DELIVERY_PAGE})`, integerIn(1, MAX_WEBHOOK_DELIVERY_PAGE))
    .option('--cursor <cursor>', 'continue from the next_cursor of a previous page')
    .action(async (webhookId: string, options: { limit?: number; cursor?: string }, cmd: Command) => {
      const ctx = contextOf(cmd, io);
      const page = await ctx.client.webhookDeliveries(webhookId, {
        ...(options.limit === undefined ? {} : { limit: options.limit }),
        ...(options.cursor === undefined ? {} : { cursor: options.cursor }),
      });
      ctx.emit(page, {
        human: ({ deliveries: attempts }) =>
          attempts.length === 0
            ? 'no deliveries'
            : formatTable(['DELIVERY', 'TIME', 'EVENT', 'ATTEMPT', 'OUTCOME', 'STATUS', 'DURATION', 'RESPONSE'], attempts.map(deliveryRow), ctx.colors),
        quiet: ({ deliveries: attempts }) => attempts.map((delivery) => String(delivery.delivery_id)),
      });
      if (page.next_cursor) ctx.hint(`more deliveries: runtimectl webhooks deliveries ${webhookId} --cursor ${page.next_cursor}`);
    });
  withExamples(deliveries, 'runtimectl webhooks deliveries ops', 'runtimectl webhooks deliveries ops --json | jq ".deliveries[] | select(.outcome == \\"failed\\")"');
}
