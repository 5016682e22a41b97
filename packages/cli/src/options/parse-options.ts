import { InvalidArgumentError } from 'commander';
import { MIN_IDLE_PAUSE_AFTER_MS, type JsonValue } from '@runtimectl/core';

/**
 * `-m key=value …` into metadata: the value is JSON when it parses (`count=3`, `ok=true`,
 * `tags=["a"]`), else the text as given (`team=infra`). Splits at the first `=`.
 */
export function parseMetadataPairs(pairs: readonly string[] | undefined): Record<string, JsonValue> | undefined {
  if (!pairs || pairs.length === 0) return undefined;
  const metadata: Record<string, JsonValue> = {};
  for (const [key, text] of splitPairs(pairs, '-m/--metadata')) metadata[key] = jsonOrText(text);
  return metadata;
}

/** `--env K=V …` into an environment: values stay text. */
export function parseEnvPairs(pairs: readonly string[] | undefined): Record<string, string> | undefined {
  if (!pairs || pairs.length === 0) return undefined;
  return Object.fromEntries(splitPairs(pairs, '--env'));
}

function splitPairs(pairs: readonly string[], flag: string): Array<[string, string]> {
  return pairs.map((pair) => {
    const at = pair.indexOf('=');
    if (at <= 0) throw new InvalidArgumentError(`${flag}: expected key=value, got "${pair}"`);
    return [pair.slice(0, at), pair.slice(at + 1)];
  });
}

function jsonOrText(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

const DURATION_UNITS_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * A commander argParser for a duration in milliseconds from `1500`, `500ms`, `90s`, `15m`, `2h` or
 * `7d` (one unit; a bare number is milliseconds), within [minMs, maxMs].
 */
export function durationMs(minMs: number, maxMs: number): (value: string) => number {
  return (value) => {
    const match = /^(\d+)(ms|s|m|h|d)?$/.exec(value.trim());
    const ms = match ? Number(match[1]) * DURATION_UNITS_MS[match[2] ?? 'ms']! : Number.NaN;
    if (!Number.isSafeInteger(ms) || ms < minMs || ms > maxMs) {
      throw new InvalidArgumentError(`expected a duration such as 90s, 15m, 2h or 7d (a bare number is milliseconds) from ${minMs} ms, got "${value}"`);
    }
    return ms;
  };
}

/**
 * `--idle-pause-after`: 0 (never) or a duration of at least the daemon's minimum
 * (MIN_IDLE_PAUSE_AFTER_MS of core's wire schema), refused here rather than by the daemon.
 */
export function idlePauseAfterMs(value: string): number {
  const ms = durationMs(0, Number.MAX_SAFE_INTEGER)(value);
  if (ms !== 0 && ms < MIN_IDLE_PAUSE_AFTER_MS) {
    throw new InvalidArgumentError(`expected 0 (never) or a duration of at least ${MIN_IDLE_PAUSE_AFTER_MS} ms, got "${value}"`);
  }
  return ms;
}

/** A commander argParser for whole numbers in [min, max]. */
export function integerIn(min: number, max: number): (value: string) => number {
  return (value) => {
    const parsed = Number(value);
    if (!/^\d+$/.test(value) || parsed < min || parsed > max) {
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}, got "${value}"`);
    }
    return parsed;
  };
}

/**
 * A commander argParser for repeatable/variadic `key=value` options: refuses a value without a
 * key at parse time (a usage error, exit 2) and collects the rest in order.
 */
export function keyValuePair(value: string, previous: string[] | undefined): string[] {
  if (value.indexOf('=') <= 0) throw new InvalidArgumentError(`expected key=value, got "${value}"`);
  return [...(previous ?? []), value];
}

/** A commander argParser for the daemon URL: http(s) only, refused at parse time (exit 2). */
export function daemonUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(`expected a URL such as http://127.0.0.1:7333, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError(`expected an http or https URL, got "${value}"`);
  return value;
}

/**
 * A commander argParser that takes `keywords` (`off`, `default`) as themselves and anything else
 * through `parse`, whose refusal then names the keywords too.
 */
export function orKeywords<T, K extends string>(parse: (value: string) => T, ...keywords: K[]): (value: string) => T | K {
  return (value) => {
    if ((keywords as string[]).includes(value)) return value as K;
    try {
      return parse(value);
    } catch (error) {
      if (!(error instanceof InvalidArgumentError)) throw error;
      throw new InvalidArgumentError(error.message.replace(/, got "/, ` or ${keywords.join(' or ')}, got "`));
    }
  };
}

/**
 * A commander argParser for `--idempotency-key`: printable ASCII without spaces, at most 240
 * characters (the daemon takes 255, and a command's later requests add `.<n>`).
 */
export function idempotencyKey(value: string): string {
  if (!/^[\x21-\x7e]{1,240}$/.test(value)) throw new InvalidArgumentError(`expected 1-240 printable characters without spaces, got "${value}"`);
  return value;
}
