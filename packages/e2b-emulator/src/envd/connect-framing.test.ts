import { describe, expect, it } from 'vitest';
import { ConnectRpcError, decodeSingleEnvelope, encodeEnvelope, ENVELOPE_FLAG_END_STREAM, parseConnectTimeoutMs } from './connect-framing.js';

describe('Connect envelope framing', () => {
  it('encodes flag, big-endian length and JSON, and decodes a single request envelope', () => {
    const envelope = encodeEnvelope(ENVELOPE_FLAG_END_STREAM, { error: { code: 'deadline_exceeded' } });
    expect(envelope.readUInt8(0)).toBe(2);
    expect(envelope.readUInt32BE(1)).toBe(envelope.length - 5);
    const request = encodeEnvelope(0, { process: { cmd: '/bin/bash' } });
    expect(decodeSingleEnvelope(request)).toEqual({ process: { cmd: '/bin/bash' } });
  });

  it('rejects truncated, trailing or compressed request bodies', () => {
    const request = encodeEnvelope(0, {});
    expect(() => decodeSingleEnvelope(request.subarray(0, 4))).toThrow(ConnectRpcError);
    expect(() => decodeSingleEnvelope(Buffer.concat([request, request]))).toThrow(/exactly one/);
    const compressed = Buffer.from(request);
    compressed.writeUInt8(1, 0);
    expect(() => decodeSingleEnvelope(compressed)).toThrow(/compressed/);
  });

  it('reads Connect-Timeout-Ms only when it is 1 to 10 digits', () => {
    expect(parseConnectTimeoutMs('60000')).toBe(60_000);
    expect(parseConnectTimeoutMs(undefined)).toBeUndefined();
    expect(parseConnectTimeoutMs('0')).toBeUndefined();
    expect(parseConnectTimeoutMs('12345678901')).toBeUndefined();
    expect(parseConnectTimeoutMs('1e3')).toBeUndefined();
  });
});
