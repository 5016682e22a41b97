import fc from 'fast-check';

/**
 * Generators of malformed requests. Each produces input that is invalid by construction (so
 * the only right answer is a 4xx): a field of the wrong type, a string over every length limit,
 * nesting past the parser's depth limit, base64 that is not standard padded base64, ids that
 * do not match the id patterns …
 */

/** A raw JSON text to splice into a body in place of a field (deep nesting is never built as objects). */
export interface RawValue {
  raw: string;
}

export const RUNTIME_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}(:checkout:[0-9a-f]{32})?$/;
export const CHECKPOINT_ID = /^rtcp_[0-9a-f]{32}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Characters that break naive handling: controls, NUL, bidi overrides, lone surrogates, separators. */
const NASTY = ['\u0000', '\u0007', '\u001b', '\u007f', '\n', '\r', '\t', '\u202e', '\u2028', '\ufeff', '\ud800', '\udfff', '😀', 'é', '/', '\\', '..', '%00', '%2e%2e', '"', "'", '<', '{'];

const nastyString = fc
  .array(fc.oneof(fc.constantFrom(...NASTY), fc.string({ unit: 'binary', maxLength: 8 })), { minLength: 1, maxLength: 12 })
  .map((parts) => parts.join(''));

/** Strings that no runtime id (or checkpoint id) pattern accepts. */
export const badRuntimeId = nastyString.filter((value) => !RUNTIME_ID.test(value));
export const badCheckpointId = fc.oneof(nastyString, fc.string({ unit: 'binary', maxLength: 64 })).filter((value) => !CHECKPOINT_ID.test(value));

/** Bytes each unit takes once JSON-encoded (`\u0000` is escaped to six characters). */
const ENCODED_BYTES: Record<string, number> = { x: 1, é: 2, '😀': 4, '\u0000': 6, '[': 1, '"': 2 };
/** Kept under the daemon's 10 MiB body limit: oversized bodies have their own test (413). */
const HUGE_MAX_ENCODED_BYTES = 8 * 1024 * 1024;

/**
 * Strings over every limit of the API (the longest, exec's command, is 256 Ki characters). zod
 * counts a string's length in code points, not UTF-16 units, and every unit here is one code
 * point: `length` units are `length` characters, whatever their encoding (counting '😀' as two
 * let strings of 150,000 emoji through as "huge" although the API accepts them).
 */
export const hugeString = fc
  .tuple(fc.integer({ min: 300_000, max: 2_000_000 }), fc.constantFrom(...Object.keys(ENCODED_BYTES)))
  .map(([length, unit]) => unit.repeat(Math.min(length, Math.floor(HUGE_MAX_ENCODED_BYTES / ENCODED_BYTES[unit]!))));

/** Arrays or objects nested deeper than the server accepts (256), as raw JSON text. */
export const deepNesting: fc.Arbitrary<RawValue> = fc
  .tuple(fc.integer({ min: 257, max: 300_000 }), fc.boolean())
  .map(([depth, arrays]) => ({ raw: arrays ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` }));

/** Values of a type no string field takes. */
export const wrongType = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
);

/** Text that is not standard, padded base64. */
export const invalidBase64 = fc
  .oneof(
    fc.constantFrom('YQ', 'YQ=', 'Y===', '====', 'YQ==YQ==', 'YQ ==', ' YQ==', 'YQ==\n', 'a-_b', 'YWJj\u0000', '%59%51%3D%3D', 'YQ==='),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 64 }),
  )
  .filter((value) => !BASE64.test(value));

/** Workspace paths with unicode and control characters (refused, or simply not found: never served). */
export const strangePath = fc.oneof(
  nastyString,
  fc.array(fc.constantFrom('..', '.', '', 'a', '\u0000', '😀', '\u202e'), { minLength: 1, maxLength: 8 }).map((parts) => parts.join('/')),
);

/** Names for request fields that no route has. */
export const extraFieldName = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'provider_snapshot_id', 'sandbox_id', 'backend_id', 'api_key', 'token'),
  fc.string({ minLength: 1, maxLength: 20 }).map((name) => `x_${name}`),
);

/** Content types the API does not take (the body itself is valid JSON). */
export const wrongContentType = fc.constantFrom(
  'text/plain',
  'text/plain; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=reliability',
  'application/xml',
  'text/xml',
  'application/octet-stream',
  'application/x-ndjson',
  'text/json',
  'image/png',
  'none',
);

/** Query strings the list routes refuse: unknown keys, limits out of range, unknown statuses. */
export const badQuery = fc.oneof(
  fc.string({ minLength: 1, maxLength: 12 }).map((key) => `x_${encodeURIComponent(key)}=1`),
  fc.constantFrom('limit=0', 'limit=-1', 'limit=501', 'limit=abc', 'limit=1.5', 'limit=', 'status=unknown', 'status=', `cursor=${'c'.repeat(600)}`),
);
