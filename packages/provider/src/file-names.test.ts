import { describe, expect, it } from 'vitest';
import { nameBytes, nameFromBytes } from './file-names';

const bytes = (...values: number[]) => Buffer.from(values);

describe('file names as bytes (surrogateescape)', () => {
  it('a valid UTF-8 name is its plain text, both ways', () => {
    for (const name of ['a.txt', 'ünïcødé', '日本語', 'emoji 😀', 'p\ufffd']) {
      expect(nameFromBytes(Buffer.from(name))).toBe(name);
      expect(nameBytes(name).equals(Buffer.from(name))).toBe(true);
    }
  });

  it('each byte outside a valid sequence becomes U+DC80–U+DCFF, and comes back as that byte', () => {
    expect(nameFromBytes(bytes(0x70, 0xff))).toBe('p\udcff');
    expect(nameFromBytes(bytes(0xc3))).toBe('\udcc3'); // a truncated sequence
    expect(nameFromBytes(bytes(0xc0, 0xaf))).toBe('\udcc0\udcaf'); // overlong '/'
    expect(nameFromBytes(bytes(0xed, 0xa0, 0x80))).toBe('\udced\udca0\udc80'); // an encoded surrogate
    expect(nameFromBytes(bytes(0xe6, 0x97, 0xa5, 0x80, 0x61))).toBe('日\udc80a');
  });

  it('every byte string round-trips, and names that decode alike stay apart', () => {
    const samples = [bytes(0x70, 0xff), bytes(0x70, 0xef, 0xbf, 0xbd), bytes(0x80, 0x80), bytes(0xf0, 0x9f, 0x98), bytes(0xf4, 0x90, 0x80, 0x80)];
    for (let i = 0; i < 500; i++) samples.push(Buffer.from(Array.from({ length: 1 + (i % 9) }, (_, j) => 1 + ((i * 31 + j * 97) % 255))));
    const seen = new Map<string, string>();
    for (const sample of samples) {
      const name = nameFromBytes(sample);
      expect(nameBytes(name).equals(sample)).toBe(true);
      const before = seen.get(name);
      if (before !== undefined) expect(before).toBe(sample.toString('hex'));
      seen.set(name, sample.toString('hex'));
    }
  });
});
