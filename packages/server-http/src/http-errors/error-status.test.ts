import { readFileSync } from 'node:fs';
import { ERROR_CODES } from '@runtimectl/core';
import { describe, expect, it } from 'vitest';
import { ERROR_STATUS } from './error-status';

const DOC = new URL('../../../../docs/http-api.md', import.meta.url);

/** Rows of the markdown table whose header is `| code | status | when |`: code → status. */
function documentedStatuses(markdown: string): Map<string, number> {
  const lines = markdown.split('\n');
  const header = lines.findIndex((line) => /^\|\s*code\s*\|\s*status\s*\|/.test(line));
  if (header < 0) throw new Error('docs/http-api.md has no `| code | status |` table');
  const documented = new Map<string, number>();
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const [codes = '', status = ''] = line.split('|').slice(1, 3);
    for (const [, code] of codes.matchAll(/`([a-z_]+)`/g)) {
      if (documented.has(code!)) throw new Error(`${code} is documented twice`);
      documented.set(code!, Number(status.trim()));
    }
  }
  return documented;
}

describe('the error code table', () => {
  const documented = documentedStatuses(readFileSync(DOC, 'utf8'));

  it('maps every code of core to a status, and nothing else', () => {
    expect(Object.keys(ERROR_STATUS).sort()).toEqual([...ERROR_CODES].sort());
  });

  it('documents every code of core in docs/http-api.md, and no stale code', () => {
    expect([...documented.keys()].sort()).toEqual([...ERROR_CODES].sort());
  });

  it('documents the same status for each code as the handler sends', () => {
    for (const code of ERROR_CODES) expect(documented.get(code), code).toBe(ERROR_STATUS[code]);
  });

  it('uses client statuses for caller mistakes and server statuses only for server or provider failures', () => {
    const serverSide = new Set(['internal', 'unsupported_backend', 'provider_error', 'checkpoint_verification_failed', 'store_unavailable', 'runtime_on_other_node', 'node_unreachable', 'provider_timeout']);
    for (const code of ERROR_CODES) {
      expect(ERROR_STATUS[code] >= 500, code).toBe(serverSide.has(code));
    }
  });
});
