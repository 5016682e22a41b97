/**
 * Pre-signed `/files` URLs (`sandbox.downloadUrl` / `uploadUrl`): `signature=v1_<base64
 * sha256("path:operation:user:envdAccessToken[:expiration]")>` without padding, the optional
 * `signature_expiration` in Unix seconds, over the `path` and `username` exactly as the URL
 * carries them (operation `read` for GET, `write` for POST). Such a URL carries no
 * `E2b-Sandbox-Id` (E2B routes it by host name, one per sandbox); here one host serves every
 * sandbox, so the sandbox is the one whose access token makes the signature: the signature
 * names it as surely as a host name would.
 */
import { createHash } from 'node:crypto';
import { ApiError } from '../http/api-error.js';

/** The signature the SDK's `getSignature` makes. */
export function fileSignature(filePath: string, operation: 'read' | 'write', user: string, accessToken: string, expiration?: number): string {
  const raw = [filePath, operation, user, accessToken, ...(expiration === undefined ? [] : [String(expiration)])].join(':');
  return `v1_${createHash('sha256').update(raw, 'utf8').digest('base64').replace(/=+$/, '')}`;
}

/** Whether the URL carries a signature (else the access-token header must authenticate it). */
export function isSignedFileUrl(url: URL): boolean {
  return url.searchParams.has('signature');
}

/**
 * Checks the URL's signature against `accessToken`, envd's order and messages: an expired
 * signature is refused before it is compared. Throws ApiError(401).
 */
export function verifyFileSignature(url: URL, method: string, accessToken: string, nowMs: number): void {
  const expiration = expirationOf(url, nowMs);
  if (!signatureMatches(url, method, accessToken, expiration)) throw new ApiError(401, 'invalid signature');
}

/** Of `tokens`, the one that signed the URL, or ApiError(401) (expired first, as envd). */
export function tokenOfSignedUrl<T extends { envdAccessToken: string }>(url: URL, method: string, candidates: readonly T[], nowMs: number): T {
  const expiration = expirationOf(url, nowMs);
  const signer = candidates.find((candidate) => signatureMatches(url, method, candidate.envdAccessToken, expiration));
  if (!signer) throw new ApiError(401, 'invalid signature');
  return signer;
}

function expirationOf(url: URL, nowMs: number): number | undefined {
  const raw = url.searchParams.get('signature_expiration');
  if (raw === null || raw === '') return undefined;
  if (!/^-?\d+$/.test(raw)) throw new ApiError(400, 'signature_expiration must be a Unix time in seconds');
  const expiration = Number(raw);
  if (expiration * 1000 < nowMs) throw new ApiError(401, 'signature is already expired');
  return expiration;
}

function signatureMatches(url: URL, method: string, accessToken: string, expiration: number | undefined): boolean {
  const operation = method === 'POST' ? 'write' : 'read';
  const expected = fileSignature(url.searchParams.get('path') ?? '', operation, url.searchParams.get('username') ?? '', accessToken, expiration);
  return url.searchParams.get('signature') === expected;
}
