import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import { RuntimectlError, type ErrorCode } from '@runtimectl/core';

/**
 * Awaits `work`, expects it to reject with a runtimectl error of `code` (checked with
 * `isInstance`, so it works across package copies) and returns the error for further checks.
 */
export async function expectRuntimectlError(work: Promise<unknown>, code: ErrorCode): Promise<RuntimectlError> {
  let outcome: { value: unknown } | { error: unknown };
  try {
    outcome = { value: await work };
  } catch (error) {
    outcome = { error };
  }
  if (!('error' in outcome)) throw new Error(`expected an error with code ${code}, but the call resolved`);
  const error = outcome.error;
  if (!RuntimectlError.isInstance(error)) {
    throw new Error(`expected a runtimectl error with code ${code}, got ${String(error)}`, { cause: error });
  }
  expect(error.code, `error code (message: ${error.message})`).toBe(code);
  return error;
}

/** Compares bytes by length and digest, so a 5 MiB mismatch does not print a 5 MiB diff. */
export function expectSameBytes(actual: Uint8Array, expected: Uint8Array): void {
  expect(actual.byteLength, 'byte length').toBe(expected.byteLength);
  const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
  expect(digest(actual), 'sha256 of the content').toBe(digest(expected));
}

export const text = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
export const utf8 = (value: string) => new Uint8Array(Buffer.from(value, 'utf8'));
export const base64 = (value: string | Uint8Array) => Buffer.from(value).toString('base64');
export const fromBase64 = (value: string) => new Uint8Array(Buffer.from(value, 'base64'));

/** Every byte value 0..255 once, in order. */
export function allByteValues(): Uint8Array {
  return Uint8Array.from({ length: 256 }, (_, index) => index);
}

/** Deterministic pseudo-random bytes (xorshift32), so failures reproduce. */
export function pseudoRandomBytes(length: number, seed = 0x9e3779b9): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = seed >>> 0 || 1;
  for (let index = 0; index < length; index += 1) {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    bytes[index] = state & 0xff;
  }
  return bytes;
}

/** Concatenates everything an async iterable of chunks yields. */
export async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return new Uint8Array(Buffer.concat(parts));
}
