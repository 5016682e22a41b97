import { readFileSync } from 'node:fs';
import { RuntimeDetailSchema, RuntimeOpenRequestSchema, RuntimeUpdateRequestSchema } from '@runtimectl/core';
import { describe, expect, it } from 'vitest';

const DOC = readFileSync(new URL('../../../docs/http-api.md', import.meta.url), 'utf8');

/** The row of the routes table for `route` (`GET /api/v1/runtimes/{runtime_id}`), split into its request and response cells. */
function routeRow(route: string): { request: string; response: string } {
  const line = DOC.split('\n').find((row) => row.startsWith(`| \`${route}\` |`));
  if (!line) throw new Error(`docs/http-api.md has no row for ${route}`);
  const [, request = '', response = ''] = line.split(' | ');
  return { request, response };
}

/** The top-level names of the first `{…}` of a cell. */
function namesIn(cell: string): string[] {
  const braces = /`\{([^`]*)\}`/.exec(cell)?.[1] ?? '';
  return braces.split(',').map((name) => name.trim().replace(/\?$/, '').replace(/:.*$/, ''));
}

describe('the routes table of docs/http-api.md', () => {
  it('names every field of a runtime\'s detail (GET /runtimes/{id})', () => {
    expect(namesIn(routeRow('GET /api/v1/runtimes/{runtime_id}').response).sort()).toEqual(Object.keys(RuntimeDetailSchema.shape).sort());
  });

  it('names every field open and update take', () => {
    expect(namesIn(routeRow('POST /api/v1/runtimes/update').request).sort()).toEqual(Object.keys(RuntimeUpdateRequestSchema.shape).sort());
    const open = routeRow('POST /api/v1/runtimes/open').request;
    for (const field of Object.keys(RuntimeOpenRequestSchema.shape)) expect(open, field).toContain(field);
  });
});
