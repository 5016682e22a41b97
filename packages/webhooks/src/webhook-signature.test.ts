import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SIGNATURE_HEADER, signWebhookBody, verifyWebhookSignature } from './webhook-signature';

const secret = 'whsec_test_0123456789abcdef';
const body = '{"event_id":7,"type":"runtime.opened"}';

describe('webhook signatures', () => {
  it('signs t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")> (Stripe’s scheme)', () => {
    const header = signWebhookBody(secret, body, 1_764_000_000);
    const expected = createHmac('sha256', secret).update(`1764000000.${body}`).digest('hex');
    expect(SIGNATURE_HEADER).toBe('runtimectl-signature');
    expect(header).toBe(`t=1764000000,v1=${expected}`);
  });

  it('verification accepts its own signature within the tolerance window', () => {
    const header = signWebhookBody(secret, body, 1_764_000_000);
    expect(verifyWebhookSignature({ secret, body, header, nowSeconds: 1_764_000_000 + 299 })).toBe(true);
  });

  it('verification refuses a changed body, another secret, a stale or future timestamp, and a malformed header', () => {
    const header = signWebhookBody(secret, body, 1_764_000_000);
    const now = 1_764_000_000;
    expect(verifyWebhookSignature({ secret, body: body.replace('7', '8'), header, nowSeconds: now })).toBe(false);
    expect(verifyWebhookSignature({ secret: 'another-secret-of-16+', body, header, nowSeconds: now })).toBe(false);
    expect(verifyWebhookSignature({ secret, body, header, nowSeconds: now + 301 })).toBe(false);
    expect(verifyWebhookSignature({ secret, body, header, nowSeconds: now - 301 })).toBe(false);
    expect(verifyWebhookSignature({ secret, body, header: 'v1=deadbeef', nowSeconds: now })).toBe(false);
    expect(verifyWebhookSignature({ secret, body, header: `t=${now},v1=zz`, nowSeconds: now })).toBe(false);
  });
});
