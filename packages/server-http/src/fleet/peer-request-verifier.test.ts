import { describe, expect, it } from 'vitest';
import { bodyDigestOf, FLEET_SIGNATURE_WINDOW_MS, signPeerRequest, type PeerRequestClaim } from './fleet-signature';
import { PeerRequestVerifier } from './peer-request-verifier';

const SECRET = 'a-fleet-secret-for-this-test-0123456789';
const T0 = 1_800_000_000_000;

function signed(overrides: Partial<PeerRequestClaim> = {}) {
  const claim: PeerRequestClaim = {
    from: 'node-a',
    to: 'node-b',
    timestampMs: T0,
    nonce: 'ab'.repeat(16),
    method: 'POST',
    url: '/api/v1/runtimes/exec',
    bodyDigest: bodyDigestOf('{"runtime_id":"r"}'),
    idempotencyKey: 'key-1',
    ...overrides,
  };
  return {
    method: claim.method,
    url: claim.url,
    headers: {
      'x-runtimectl-forwarded-by': claim.from,
      'x-runtimectl-fleet-signature': signPeerRequest(SECRET, claim),
      'idempotency-key': claim.idempotencyKey,
    },
  };
}

describe('PeerRequestVerifier', () => {
  it('admits a request signed under the fleet secret for this node, naming its sender, nonce and body digest', () => {
    const verifier = new PeerRequestVerifier('node-b', SECRET, () => T0 + 1_000);
    expect(verifier.verify(signed())).toEqual({ ok: true, peer: { from: 'node-a', nonce: 'ab'.repeat(16), bodyDigest: bodyDigestOf('{"runtime_id":"r"}') } });
  });

  it('refuses the same signed request a second time (a replay)', () => {
    const verifier = new PeerRequestVerifier('node-b', SECRET, () => T0);
    expect(verifier.verify(signed()).ok).toBe(true);
    expect(verifier.verify(signed())).toEqual({ ok: false, reason: 'this signed request was seen before (a replay)' });
  });

  it('refuses a request signed more than the window away from its clock, either way', () => {
    for (const skew of [FLEET_SIGNATURE_WINDOW_MS + 1, -FLEET_SIGNATURE_WINDOW_MS - 1]) {
      const verifier = new PeerRequestVerifier('node-b', SECRET, () => T0 + skew);
      expect(verifier.verify(signed())).toMatchObject({ ok: false, reason: expect.stringMatching(/ms from this node's clock/) });
    }
  });

  it('refuses a request signed for another node, under another secret, or altered after signing', () => {
    const verifier = new PeerRequestVerifier('node-b', SECRET, () => T0);
    const altered = [
      signed({ to: 'node-c' }),
      { ...signed(), url: '/api/v1/runtimes/close' },
      { ...signed(), method: 'PUT' },
      { ...signed(), headers: { ...signed().headers, 'idempotency-key': 'key-2' } },
      { ...signed(), headers: { ...signed().headers, 'x-runtimectl-forwarded-by': 'node-c' } },
    ];
    for (const request of altered) expect(verifier.verify(request)).toMatchObject({ ok: false, reason: expect.stringMatching(/signature does not match/) });
    expect(new PeerRequestVerifier('node-b', 'another-secret-of-32-characters-000000', () => T0).verify(signed())).toMatchObject({ ok: false });
  });

  it('refuses every peer request when this node has no fleet secret, and malformed signatures', () => {
    expect(new PeerRequestVerifier('node-b', undefined, () => T0).verify(signed())).toMatchObject({ ok: false, reason: expect.stringMatching(/no fleet secret/) });
    const verifier = new PeerRequestVerifier('node-b', SECRET, () => T0);
    expect(verifier.verify({ ...signed(), headers: { 'x-runtimectl-forwarded-by': 'node-a', 'x-runtimectl-fleet-signature': 'v1=00' } })).toMatchObject({ ok: false });
    expect(verifier.verify({ ...signed(), headers: { 'x-runtimectl-forwarded-by': 'node-a' } })).toMatchObject({ ok: false });
  });
});
