/**
 * Connect protocol framing for envd's JSON codec, as `@connectrpc/connect-web` speaks it
 * (`useBinaryFormat: false`): unary calls are plain JSON bodies, server-streaming calls use
 * 5-byte envelopes (1 flag byte, 4-byte big-endian length) and end with an end-stream
 * envelope (flag 0x02) that carries `{}` or `{"error": {...}}`.
 */
import type { ServerResponse } from 'node:http';
import type { z } from 'zod';

export const ENVELOPE_FLAG_COMPRESSED = 0x01;
export const ENVELOPE_FLAG_END_STREAM = 0x02;

/** The Connect error codes envd (and so the SDK's mapping) uses. */
export type ConnectCode =
  | 'canceled'
  | 'unknown'
  | 'invalid_argument'
  | 'deadline_exceeded'
  | 'not_found'
  | 'already_exists'
  | 'permission_denied'
  | 'resource_exhausted'
  | 'failed_precondition'
  | 'aborted'
  | 'out_of_range'
  | 'unimplemented'
  | 'internal'
  | 'unavailable'
  | 'data_loss'
  | 'unauthenticated';

/** An RPC failure that is answered as a Connect error (unary: HTTP status + JSON body). */
export class ConnectRpcError extends Error {
  constructor(
    readonly connectCode: ConnectCode,
    message: string,
  ) {
    super(message);
    this.name = 'ConnectRpcError';
  }
}

const HTTP_STATUS_BY_CODE: Record<ConnectCode, number> = {
  canceled: 499,
  unknown: 500,
  invalid_argument: 400,
  deadline_exceeded: 504,
  not_found: 404,
  already_exists: 409,
  permission_denied: 403,
  resource_exhausted: 429,
  failed_precondition: 400,
  aborted: 409,
  out_of_range: 400,
  unimplemented: 501,
  internal: 500,
  unavailable: 503,
  data_loss: 500,
  unauthenticated: 401,
};

/** HTTP status of a unary Connect error, per the Connect protocol's table. */
export function httpStatusOfConnectCode(code: ConnectCode): number {
  return HTTP_STATUS_BY_CODE[code];
}

/**
 * The Connect code that an injected HTTP status stands for, so a `failNext` on an RPC
 * operation reaches the SDK as the error class that status would have produced.
 */
export function connectCodeOfHttpStatus(status: number): ConnectCode {
  switch (status) {
    case 400:
      return 'invalid_argument';
    case 401:
      return 'unauthenticated';
    case 403:
      return 'permission_denied';
    case 404:
      return 'not_found';
    case 409:
      return 'already_exists';
    case 429:
      return 'resource_exhausted';
    case 499:
      return 'canceled';
    case 501:
      return 'unimplemented';
    case 502:
    case 503:
      return 'unavailable';
    case 504:
      return 'deadline_exceeded';
    default:
      return status >= 500 ? 'internal' : 'unknown';
  }
}

/** Encodes one envelope around a JSON value. */
export function encodeEnvelope(flags: number, value: unknown): Buffer {
  const payload = Buffer.from(JSON.stringify(value), 'utf8');
  const header = Buffer.alloc(5);
  header.writeUInt8(flags, 0);
  header.writeUInt32BE(payload.length, 1);
  return Buffer.concat([header, payload]);
}

/**
 * Decodes the single request envelope of a server-streaming call.
 * Throws ConnectRpcError(invalid_argument) when the body is not exactly one JSON envelope.
 */
export function decodeSingleEnvelope(body: Buffer): unknown {
  if (body.length < 5) throw new ConnectRpcError('invalid_argument', 'request body is not an enveloped message');
  const flags = body.readUInt8(0);
  const length = body.readUInt32BE(1);
  if ((flags & ENVELOPE_FLAG_COMPRESSED) !== 0) {
    throw new ConnectRpcError('internal', 'compressed request messages are not supported');
  }
  if (body.length !== 5 + length) {
    throw new ConnectRpcError('invalid_argument', 'request body must carry exactly one enveloped message');
  }
  return parseJson(body.subarray(5));
}

/** Parses a unary JSON request body; an empty body is the empty message. */
export function decodeUnaryBody(body: Buffer): unknown {
  if (body.length === 0) return {};
  return parseJson(body);
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new ConnectRpcError('invalid_argument', 'request message is not valid JSON');
  }
}

/** Validates a decoded request message; a mismatch is `invalid_argument`, as envd answers. */
export function parseMessage<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new ConnectRpcError('invalid_argument', `invalid request: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/** Answers a unary call with HTTP 200 and the JSON message. */
export function sendUnaryMessage(res: ServerResponse, message: unknown): void {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
}

/** Answers a unary call with a Connect error: mapped HTTP status and `{code, message}` JSON. */
export function sendUnaryError(res: ServerResponse, error: ConnectRpcError): void {
  const body = Buffer.from(JSON.stringify({ code: error.connectCode, message: error.message }), 'utf8');
  res.writeHead(httpStatusOfConnectCode(error.connectCode), {
    'content-type': 'application/json',
    'content-length': body.length,
  });
  res.end(body);
}

/**
 * The Connect-Timeout-Ms request header in milliseconds, or undefined when absent.
 * The protocol allows at most 10 digits; anything else is ignored rather than rejected.
 */
export function parseConnectTimeoutMs(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || !/^\d{1,10}$/.test(value)) return undefined;
  const timeoutMs = Number(value);
  return timeoutMs > 0 ? timeoutMs : undefined;
}
