import { afterAll, describe, expect, it } from 'vitest';
import { startRuntimed, type RuntimedProcess } from './runtimed-process';

// The web console as an installed runtimed serves it: the prebuilt files of @runtimectl/console,
// named on the start line; `http.console = false` serves none. (What the console does in a
// browser is tests/console's.)
const TOKEN = 'console-admin-token-0123456789abcdef';
const daemons: RuntimedProcess[] = [];

afterAll(async () => {
  await Promise.all(daemons.map((daemon) => daemon.stop()));
});

async function runtimed(env: Record<string, string> = {}): Promise<RuntimedProcess> {
  const daemon = await startRuntimed(['--log-level', 'warn', '--local-isolation', 'none'], { RUNTIMECTL_HTTP_AUTH_BEARER_TOKEN_ENV: 'ADMIN', ADMIN: TOKEN, ...env });
  daemons.push(daemon);
  return daemon;
}

describe('the web console', () => {
  it('is served at /console/ by default, before any key, its page and scripts from this daemon only, and the start line says where', async () => {
    const daemon = await runtimed();
    expect(daemon.banner).toContain(`console: ${daemon.url}/console/`);
    const page = await fetch(`${daemon.url}/console/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await page.text();
    expect(html).toContain('<title>');
    const scripts = [...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((match) => match[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    // No inline script (the CSP would refuse it) and nothing from another origin.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    for (const src of scripts) {
      expect(src).toMatch(/^\.\/assets\//);
      const script = await fetch(new URL(src, `${daemon.url}/console/`));
      expect(script.status, src).toBe(200);
      expect(script.headers.get('cache-control')).toContain('immutable');
    }
    expect((await fetch(`${daemon.url}/api/v1/runtimes`)).status).toBe(401);
  });

  it('http.console = false serves no console', async () => {
    const daemon = await runtimed({ RUNTIMECTL_HTTP_CONSOLE: 'false' });
    expect(daemon.banner).toContain('console: off');
    const page = await fetch(`${daemon.url}/console/`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(page.status).toBe(404);
  });
});
