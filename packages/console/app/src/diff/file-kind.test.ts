import { describe, expect, it } from 'vitest';
import { decodeFileText, INLINE_LIMIT_BYTES, isBinary, isTooLargeToShow } from './file-kind';

const encode = (text: string) => new TextEncoder().encode(text);

describe('file kind detection', () => {
  it('calls text with multi-byte characters text, even when the probe cuts one in half', () => {
    expect(isBinary(encode('héllo wörld ✓'))).toBe(false);
    const padded = new Uint8Array([...new Uint8Array(8191).fill(0x61), ...encode('é')]);
    expect(isBinary(padded)).toBe(false);
  });

  it('calls a NUL byte or invalid UTF-8 binary', () => {
    expect(isBinary(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00]))).toBe(true);
    expect(isBinary(new Uint8Array([0x61, 0xff, 0xfe, 0x62]))).toBe(true);
  });

  it('looks only at the first 8 KiB', () => {
    const late = new Uint8Array(10_000).fill(0x61);
    late[9_000] = 0;
    expect(isBinary(late)).toBe(false);
  });

  it('decodes text and reports binary sizes', () => {
    expect(decodeFileText(encode('a\nb'))).toEqual({ kind: 'text', text: 'a\nb' });
    expect(decodeFileText(new Uint8Array([0, 1, 2]))).toEqual({ kind: 'binary', size: 3 });
  });

  it('knows from sizes alone when a file is too large to show', () => {
    expect(isTooLargeToShow(10, INLINE_LIMIT_BYTES + 1)).toBe(true);
    expect(isTooLargeToShow(INLINE_LIMIT_BYTES, null)).toBe(false);
  });
});
