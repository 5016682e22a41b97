import { isUtf8 } from 'node:buffer';

/**
 * File names are bytes (any but `/` and NUL), not text. A workspace path in a manifest, a stat
 * index or on the wire is a string; a name that is not valid UTF-8 is carried in it with each
 * byte outside a valid UTF-8 sequence as a lone surrogate U+DC80–U+DCFF — Python's
 * `surrogateescape` (PEP 383). Valid UTF-8 never decodes to a lone surrogate, so the mapping is
 * one-to-one: `p\xff` is `"p\udcff"` and `p\xef\xbf\xbd` is `"p\ufffd"`, two names, and
 * `nameBytes(nameFromBytes(bytes))` equals `bytes` for every name. For valid UTF-8 both are the
 * plain encoding.
 */
export function nameFromBytes(bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isUtf8(buffer)) return buffer.toString('utf8');
  let name = '';
  for (let at = 0; at < buffer.length; ) {
    const length = sequenceLength(buffer[at]!);
    const sequence = buffer.subarray(at, at + length);
    if (length > 0 && sequence.length === length && isUtf8(sequence)) {
      name += sequence.toString('utf8');
      at += length;
    } else {
      name += String.fromCharCode(0xdc00 + buffer[at]!);
      at += 1;
    }
  }
  return name;
}

/** The bytes of a name or path `nameFromBytes` made (a string without escapes: its UTF-8). */
export function nameBytes(name: string): Buffer {
  if (!hasLoneSurrogate(name)) return Buffer.from(name, 'utf8');
  const parts: Buffer[] = [];
  let text = '';
  for (let at = 0; at < name.length; at++) {
    const code = name.charCodeAt(at);
    if (code >= 0xdc80 && code <= 0xdcff && !(at > 0 && isHighSurrogate(name.charCodeAt(at - 1)))) {
      parts.push(Buffer.from(text, 'utf8'), Buffer.of(code - 0xdc00));
      text = '';
    } else {
      text += name[at];
    }
  }
  parts.push(Buffer.from(text, 'utf8'));
  return Buffer.concat(parts);
}

/** A path for the `node:fs` calls: the string itself, or its bytes when it holds an escaped byte. */
export function fsPathOf(path: string): string | Buffer {
  return hasLoneSurrogate(path) ? nameBytes(path) : path;
}

/** The length of the UTF-8 sequence a lead byte starts; 0 for a byte no sequence starts with. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** A surrogate that is not half of a pair (what `String.prototype.isWellFormed`, ES2024, looks for). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const hasLoneSurrogate = (text: string) => LONE_SURROGATE.test(text);
