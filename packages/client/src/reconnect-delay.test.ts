import { describe, expect, it } from 'vitest';
import { TooManyEventStreamsError } from './api-errors';
import { MAX_REFUSED_DELAY_MS, RECONNECT_DELAY_MS, reconnectDelayMs } from './reconnect-delay';

const refusal = (retryAfterMs?: number) =>
  new TooManyEventStreamsError({ code: 'too_many_event_streams', status: 429, message: 'full', ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
const noJitter = () => 0;

describe('reconnectDelayMs', () => {
  it('reopens a broken stream after the fixed reconnect delay', () => {
    expect(reconnectDelayMs(new Error('connection reset'), 0, noJitter)).toBe(RECONNECT_DELAY_MS);
  });

  it('waits at least Retry-After after a refusal, doubling while refusals go on, up to the cap', () => {
    expect(reconnectDelayMs(refusal(3_000), 1, noJitter)).toBe(3_000);
    expect([1, 2, 3, 4].map((refusals) => reconnectDelayMs(refusal(1_000), refusals, noJitter))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(reconnectDelayMs(refusal(), 20, noJitter)).toBe(MAX_REFUSED_DELAY_MS);
  });

  it('spreads refused followers by up to a quarter more, never less than Retry-After', () => {
    expect(reconnectDelayMs(refusal(2_000), 1, () => 0.999)).toBeLessThanOrEqual(2_500);
    expect(reconnectDelayMs(refusal(2_000), 1, () => 0.5)).toBe(2_250);
  });
});
