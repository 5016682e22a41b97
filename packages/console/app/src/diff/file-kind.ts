/** Files above this many bytes (either side) are not fetched for an inline view. */
export const INLINE_LIMIT_BYTES = 1024 * 1024;
/** How much of a file is inspected to call it binary, as git and grep do. */
export const BINARY_PROBE_BYTES = 8 * 1024;

export function isTooLargeToShow(...sizes: Array<number | null | undefined>): boolean {
  return sizes.some((size) => typeof size === 'number' && size > INLINE_LIMIT_BYTES);
}

/** A NUL byte, or bytes that are not UTF-8, in the first 8 KiB: not text we can show. */
export function isBinary(bytes: Uint8Array): boolean {
  const probe = bytes.subarray(0, BINARY_PROBE_BYTES);
  if (probe.includes(0)) return true;
  try {
    // `stream: true` so a character cut by the 8 KiB boundary is not taken for invalid UTF-8.
    new TextDecoder('utf-8', { fatal: true }).decode(probe, { stream: probe.length < bytes.length });
    return false;
  } catch {
    return true;
  }
}

export type FileText = { kind: 'text'; text: string } | { kind: 'binary'; size: number };

export function decodeFileText(bytes: Uint8Array): FileText {
  if (isBinary(bytes)) return { kind: 'binary', size: bytes.length };
  return { kind: 'text', text: new TextDecoder('utf-8').decode(bytes) };
}
