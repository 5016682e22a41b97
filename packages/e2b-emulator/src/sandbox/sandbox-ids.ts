/** Identifiers shaped like E2B's: 20 lowercase alphanumerics for sandboxes and templates. */
import { randomBytes, randomInt } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A random id of `length` lowercase alphanumerics, e.g. `i3k0x9...` for sandboxes. */
export function randomId(length = 20): string {
  let id = '';
  for (let index = 0; index < length; index += 1) id += ALPHABET[randomInt(ALPHABET.length)];
  return id;
}

/** An envd access token; only its holder may call the sandbox's envd. */
export function randomAccessToken(): string {
  return randomBytes(24).toString('hex');
}
