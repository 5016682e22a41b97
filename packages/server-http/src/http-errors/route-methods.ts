/** One registered path pattern (`/api/v1/runtimes/:runtime_id`), as a matcher, with its methods. */
interface PatternMethods {
  matches: RegExp;
  methods: Set<string>;
}

/** A fastify route path as a whole-path matcher: `:name` one segment, `*` the rest. */
function matcherOf(url: string): RegExp {
  const pattern = url
    .split(/(:[A-Za-z0-9_]+|\*)/)
    .map((part) => (part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${pattern}$`);
}

const isStatic = (url: string) => !/[:*]/.test(url);

/**
 * The methods each path of the API is served under, learnt from the routes as they are
 * registered (`onRoute`), so that a request with another method is answered 405 with `Allow`
 * rather than 404 — and a request whose path is an action's (`/api/v1/runtimes/checkpoint`,
 * POST) with the wrong method is that 405 even though a parametric route of its method
 * (`GET /api/v1/runtimes/:runtime_id`) would take it: the static path names what was meant.
 */
export class RouteMethods {
  readonly #byUrl = new Map<string, PatternMethods>();

  add(methods: string | readonly string[], url: string): void {
    const entry = this.#byUrl.get(url) ?? { matches: matcherOf(url), methods: new Set<string>() };
    for (const method of typeof methods === 'string' ? [methods] : methods) entry.methods.add(method.toUpperCase());
    this.#byUrl.set(url, entry);
  }

  /** The methods a static route of exactly `path` is served under; undefined when none is. */
  staticMethodsOf(path: string): string[] | undefined {
    const entry = isStatic(path) ? this.#byUrl.get(path) : undefined;
    return entry && [...entry.methods].sort();
  }

  /** Every method some route matching `path` is served under (static or parametric), sorted; empty for an unknown path. */
  methodsOf(path: string): string[] {
    const methods = new Set<string>();
    for (const entry of this.#byUrl.values()) if (entry.matches.test(path)) for (const method of entry.methods) methods.add(method);
    return [...methods].sort();
  }
}
