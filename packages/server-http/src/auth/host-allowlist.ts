import { isLoopbackHost } from './loopback-host';

/** `name`, `name:port`, `[v6]` or `[v6]:port` → the lower-cased name (brackets dropped); undefined if malformed. */
function hostNameOf(hostHeader: string): string | undefined {
  const header = hostHeader.trim().toLowerCase();
  const bracketed = /^\[([0-9a-f:.]+)\](?::\d{1,5})?$/.exec(header);
  if (bracketed) return bracketed[1];
  const named = /^([^:[\]\s]+)(?::\d{1,5})?$/.exec(header);
  return named?.[1];
}

/**
 * Which `Host` headers a server without auth answers: loopback names (`localhost`, 127.0.0.0/8,
 * `[::1]`) and the configured ones, any port, case-insensitively. A page a browser loaded from
 * `attacker.example` whose name was re-pointed at 127.0.0.1 (DNS rebinding) still sends
 * `Host: attacker.example`, so it is refused before any route runs.
 */
export class HostAllowlist {
  readonly #configured: ReadonlySet<string>;

  constructor(allowedHosts: readonly string[] = []) {
    this.#configured = new Set(
      allowedHosts.map((host) => {
        const name = hostNameOf(host);
        if (name === undefined || name === '') throw new TypeError(`allowedHosts: "${host}" is not a host name`);
        return name;
      }),
    );
  }

  allows(hostHeader: string | undefined): boolean {
    if (hostHeader === undefined) return false;
    const name = hostNameOf(hostHeader);
    return name !== undefined && (isLoopbackHost(name) || this.#configured.has(name));
  }
}
