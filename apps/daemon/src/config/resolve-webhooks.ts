import type { WebhookSettings } from '@runtimectl/webhooks';
import { ConfigError } from './config-error';
import type { DaemonConfig } from './config-schema';

const MIN_SECRET_LENGTH = 16;

/** The webhooks with their secrets read (from the file or secret_env's variable). Errors name the key and variable, never a secret. */
export function resolveWebhooks(config: Pick<DaemonConfig, 'webhooks' | 'http'>, env: NodeJS.ProcessEnv): WebhookSettings[] {
  const keyNames = new Set(config.http.auth?.keys?.map((key) => key.name));
  return config.webhooks.map((webhook, index) => {
    let secret = webhook.secret;
    if (secret === undefined) {
      const name = webhook.secret_env!;
      secret = env[name]?.trim();
      if (!secret) throw new ConfigError(`webhooks.${index}.secret_env: environment variable ${name} is not set or empty (it holds webhook ${webhook.id}'s secret)`);
      if (secret.length < MIN_SECRET_LENGTH) throw new ConfigError(`webhooks.${index}.secret_env: the secret in ${name} must be at least ${MIN_SECRET_LENGTH} characters`);
    }
    if (webhook.key !== undefined && !keyNames.has(webhook.key)) {
      throw new ConfigError(`webhooks.${index}.key: no [[http.auth.keys]] entry is named ${webhook.key} (a webhook delivers only what that key may see)`);
    }
    return {
      id: webhook.id,
      url: webhook.url,
      secret,
      eventTypes: webhook.event_types,
      runtimeId: webhook.runtime_id,
      ...(webhook.key === undefined ? {} : { key: webhook.key }),
      maxAttempts: webhook.max_attempts,
      baseBackoffMs: webhook.base_backoff_ms,
      maxBackoffMs: webhook.max_backoff_ms,
      timeoutMs: webhook.timeout_ms,
    };
  });
}
