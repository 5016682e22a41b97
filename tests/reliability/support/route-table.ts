import type { Api } from './http';

export interface RouteEntry {
  method: 'GET' | 'POST' | 'DELETE';
  /** OpenAPI path template, e.g. `/api/v1/runtimes/{runtime_id}`. */
  path: string;
  /** Names of the `{…}` parameters in `path`. */
  params: string[];
  /** Properties of the JSON request body (POST routes). */
  bodyProperties: string[];
  /** Names of the query parameters the route declares. */
  queryParams: string[];
  /** The route declares `security: []`: it answers without a token (health, readiness). */
  public: boolean;
}

/** Routes the server serves without listing them in the OpenAPI document (`hide: true`). */
export const HIDDEN_ROUTES: ReadonlyArray<Pick<RouteEntry, 'method' | 'path'>> = [
  { method: 'GET', path: '/openapi.json' },
  { method: 'GET', path: '/docs' },
  { method: 'GET', path: '/docs/static/index.html' },
  { method: 'GET', path: '/metrics' },
];

interface OpenApiOperation {
  security?: unknown[];
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown>; anyOf?: Array<{ properties?: Record<string, unknown> }> } }> };
}

/**
 * The daemon's route table as its own `GET /openapi.json` publishes it: every documented method
 * and path. Tests walk this list, so a route added to the server is exercised without anyone
 * remembering to add it to the test.
 */
export async function fetchRouteTable(api: Api): Promise<RouteEntry[]> {
  const document = await api.read<{ paths: Record<string, Record<string, OpenApiOperation>> }>('/openapi.json');
  const routes: RouteEntry[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const upper = method.toUpperCase();
      if (upper !== 'GET' && upper !== 'POST' && upper !== 'DELETE') throw new Error(`unexpected method ${upper} ${path}: teach the suite about it`);
      const schema = operation.requestBody?.content?.['application/json']?.schema;
      const properties = new Set<string>(Object.keys(schema?.properties ?? {}));
      for (const branch of schema?.anyOf ?? []) for (const key of Object.keys(branch.properties ?? {})) properties.add(key);
      routes.push({
        method: upper,
        path,
        params: [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!),
        bodyProperties: [...properties].sort(),
        queryParams: (operation.parameters ?? []).filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name),
        public: Array.isArray(operation.security) && operation.security.length === 0,
      });
    }
  }
  return routes.sort((a, b) => `${a.method} ${a.path}`.localeCompare(`${b.method} ${b.path}`));
}

/** Fills a path template with (already encoded) values. */
export function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${template}`);
    return value;
  });
}
