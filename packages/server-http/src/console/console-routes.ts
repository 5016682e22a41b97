import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import '../route-config';

export const CONSOLE_PREFIX = '/console';

/**
 * The console's pages may load nothing but what this daemon serves (no CDN, no inline script or
 * style), talk to nothing but this daemon, and never be framed (a framed console could be
 * clicked through by another site: clickjacking of close and delete-snapshot).
 */
export const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** Built assets carry a content hash in their names (`assets/index-3f2a1c.js`): cached for good. */
const HASHED_ASSET = /^assets\//;

function setConsoleHeaders(reply: FastifyReply, path: string): void {
  reply.header('content-security-policy', CONSOLE_CONTENT_SECURITY_POLICY);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('x-frame-options', 'DENY');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('cross-origin-opener-policy', 'same-origin');
  reply.header('cache-control', HASHED_ASSET.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache');
}

export interface ConsoleRoutesOptions {
  /** The prebuilt console (`@runtimectl/console`'s `consoleAssetsDirectory()`): index.html and assets/. */
  assetsDirectory: string;
}

/**
 * Serves the web console's prebuilt files at `/console/` (`/console` redirects there). The files
 * are public — they hold no data and no secret — so a browser can load the sign-in page; every
 * piece of data the console shows comes from the API with the key the user enters, under that
 * key's scopes. Without auth the Host check still applies, as to every route.
 */
export function consoleRoutes(options: ConsoleRoutesOptions): FastifyPluginAsync {
  return async (app) => {
    app.addHook('onRoute', (route) => {
      route.config = { ...route.config, runtimectl: { ...route.config?.runtimectl, public: true } };
    });
    app.get(CONSOLE_PREFIX, async (_request, reply) => reply.redirect(`${CONSOLE_PREFIX}/`, 301));
    await app.register(fastifyStatic, {
      root: options.assetsDirectory,
      prefix: `${CONSOLE_PREFIX}/`,
      index: 'index.html',
      wildcard: true,
      dotfiles: 'ignore',
      decorateReply: false,
      cacheControl: false,
      setHeaders: (reply, path) => setConsoleHeaders(reply as unknown as FastifyReply, relativeTo(options.assetsDirectory, path)),
    });
  };
}

function relativeTo(root: string, path: string): string {
  return path.startsWith(root) ? path.slice(root.length).replace(/^\/+/, '') : path;
}
