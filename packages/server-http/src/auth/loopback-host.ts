import { isIP } from 'node:net';

/** Loopback names and ranges: 127.0.0.0/8, ::1, localhost (brackets already removed, lower case). */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || host === '0:0:0:0:0:0:0:1';
  return false;
}
