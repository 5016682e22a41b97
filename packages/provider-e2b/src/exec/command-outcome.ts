import type { ExecResult } from '@runtimectl/provider';

/** What the command script reported (see `commandScript`). */
export type CommandOutcome =
  | { kind: 'result'; result: ExecResult }
  | { kind: 'cwd_missing' }
  | { kind: 'setup_failed' }
  | { kind: 'unreadable' };

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Decodes one base64 line, cut to whole 4-character groups (a stream cut mid-write stays decodable). */
function decode(line: string): Uint8Array | undefined {
  if (!BASE64.test(line)) return undefined;
  return new Uint8Array(Buffer.from(line.slice(0, line.length - (line.length % 4)), 'base64'));
}

/** Parses the script's three lines; `maxOutputBytes` cuts each stream and sets `truncated`. */
export function parseCommandOutput(stdout: string, maxOutputBytes: number): CommandOutcome {
  const [encodedOut, encodedErr, status, ...rest] = stdout.split('\n');
  if (encodedOut === undefined || encodedErr === undefined || status === undefined || rest.some((line) => line !== '')) {
    return { kind: 'unreadable' };
  }
  if (status === 'cwd') return { kind: 'cwd_missing' };
  if (status === 'setup') return { kind: 'setup_failed' };
  const out = decode(encodedOut);
  const err = decode(encodedErr);
  if (!out || !err) return { kind: 'unreadable' };
  const truncated = out.byteLength > maxOutputBytes || err.byteLength > maxOutputBytes;
  const streams = { stdout: out.subarray(0, maxOutputBytes), stderr: err.subarray(0, maxOutputBytes), truncated };
  if (status === 'timeout') return { kind: 'result', result: { ...streams, exitCode: null, timedOut: true } };
  const match = /^exit (\d{1,3})$/.exec(status);
  if (!match) return { kind: 'unreadable' };
  return { kind: 'result', result: { ...streams, exitCode: Number(match[1]), timedOut: false } };
}
