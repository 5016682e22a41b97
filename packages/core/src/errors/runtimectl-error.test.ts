import { describe, expect, it } from 'vitest';
import { BackendGoneError, ProviderError, RuntimectlError } from '@runtimectl/provider';
import { RuntimeClosedError, InvalidStateError, SessionBusyError } from './runtime-state-errors';

describe('RuntimectlError', () => {
  it('carries a stable code, a message and wire-safe details', () => {
    const error = new SessionBusyError('r1');
    expect(error).toMatchObject({ code: 'session_busy', name: 'SessionBusyError', details: { runtime_id: 'r1' } });
    expect(error.message).toMatch(/r1 is busy/);
  });

  it('isInstance recognises subclasses across package copies (no prototype identity needed)', () => {
    const copy = JSON.parse(JSON.stringify({})) as Record<string | symbol, unknown>;
    const foreign = Object.assign(copy, { [Symbol.for('@runtimectl/error')]: true, kinds: ['RuntimeClosedError', 'InvalidStateError', 'RuntimectlError'], code: 'runtime_closed' });
    expect(RuntimeClosedError.isInstance(foreign)).toBe(true);
    expect(InvalidStateError.isInstance(foreign)).toBe(true);
    expect(RuntimectlError.isInstance(foreign)).toBe(true);
    expect(SessionBusyError.isInstance(foreign)).toBe(false);
    expect(RuntimectlError.isInstance(new Error('plain'))).toBe(false);
  });

  it('a BackendGoneError is a ProviderError with code provider_error', () => {
    const error = new BackendGoneError('e2b', 'attach', 'sandbox not found');
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(BackendGoneError.isInstance(new ProviderError('e2b', 'attach', 'x'))).toBe(false);
    expect(error.code).toBe('provider_error');
  });
});
