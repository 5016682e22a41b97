import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header carrying `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>` (Stripe's scheme). */
export const SIGNATURE_HEADER = 'runtimectl-signature';

/** How far a signature's timestamp may be from the receiver's clock by default (replays older than this are refused). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

const hmacHex = (secret: string, timestampSeconds: number, body: string) => createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex');

/** The signature header value for `body` sent at `timestampSeconds`. */
export function signWebhookBody(secret: string, body: string, timestampSeconds: number): string {
  return `t=${timestampSeconds},v1=${hmacHex(secret, timestampSeconds, body)}`;
}

export interface SignatureCheck {
  secret: string;
  /** The raw request body, exactly as received (not re-serialised JSON). */
  body: string;
  /** The `runtimectl-signature` header. */
  header: string;
  /** The receiver's clock, unix seconds. */
  nowSeconds: number;
  toleranceSeconds?: number;
}

/**
 * Whether `header` signs `body` with `secret`, made within the tolerance of `nowSeconds`. The
 * comparison is constant-time. The README shows the same check with nothing but `node:crypto`.
 */
export function verifyWebhookSignature(check: SignatureCheck): boolean {
  const parts = new Map(check.header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const timestamp = Number(parts.get('t'));
  const given = parts.get('v1') ?? '';
  if (!Number.isInteger(timestamp) || !/^[0-9a-f]{64}$/.test(given)) return false;
  if (Math.abs(check.nowSeconds - timestamp) > (check.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) return false;
  return timingSafeEqual(Buffer.from(hmacHex(check.secret, timestamp, check.body), 'hex'), Buffer.from(given, 'hex'));
}
