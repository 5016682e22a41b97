/**
 * A tiny method + path matcher. Path segments are split on the raw URL before decoding,
 * so an id the SDK encodes as one segment (`/templates/team%2Fsnap%3Adefault`) stays one.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface RouteContext {
  req: IncomingMessage;
  res: ServerResponse;
  /** Decoded `{name}` segments of the pattern. */
  params: Record<string, string>;
  url: URL;
}

export type RouteHandler = (context: RouteContext) => Promise<void>;

interface Route {
  method: string;
  segments: string[];
  handler: RouteHandler;
}

export interface RouteMatch {
  handler: RouteHandler;
  params: Record<string, string>;
}

export class RouteTable {
  private readonly routes: Route[] = [];

  /** Registers `handler` for `method` and a pattern like `/sandboxes/{sandboxID}/pause`. */
  add(method: string, pattern: string, handler: RouteHandler): this {
    this.routes.push({ method, segments: splitPath(pattern), handler });
    return this;
  }

  /** Finds the route for a request; undefined when none matches (the caller answers 404). */
  match(method: string, rawPath: string): RouteMatch | undefined {
    const segments = splitPath(rawPath);
    for (const route of this.routes) {
      if (route.method !== method || route.segments.length !== segments.length) continue;
      const params = matchSegments(route.segments, segments);
      if (params) return { handler: route.handler, params };
    }
    return undefined;
  }

  /** True when some route has this path under any method (answer 405, not 404). */
  hasPath(rawPath: string): boolean {
    const segments = splitPath(rawPath);
    return this.routes.some(
      (route) => route.segments.length === segments.length && matchSegments(route.segments, segments) !== undefined,
    );
  }
}

function splitPath(path: string): string[] {
  return path.split('/').filter((segment) => segment.length > 0);
}

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let index = 0; index < pattern.length; index += 1) {
    const expected = pattern[index] as string;
    const segment = actual[index] as string;
    if (expected.startsWith('{') && expected.endsWith('}')) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        return undefined;
      }
      params[expected.slice(1, -1)] = decoded;
    } else if (expected !== segment) {
      return undefined;
    }
  }
  return params;
}
