import { describe, expect, it } from 'vitest';
import { hrefs, parseDiffTarget, parseRoute } from './parse-route';

describe('parseRoute', () => {
  it('defaults to the runtimes view', () => {
    expect(parseRoute('')).toEqual({ name: 'runtimes' });
    expect(parseRoute('#/runtimes')).toEqual({ name: 'runtimes' });
  });

  it('round-trips a checkout child id with colons through the lineage href', () => {
    const runtimeId = 'agent-1:checkout:0123abcd';
    expect(parseRoute(hrefs.lineage(runtimeId))).toEqual({ name: 'lineage', runtimeId });
  });

  it('reads the diff query, including a live runtime target', () => {
    const route = parseRoute(hrefs.diff('rtcp_a', 'runtime:agent-1'));
    expect(route).toEqual({ name: 'diff', from: 'rtcp_a', to: 'runtime:agent-1' });
    expect(parseDiffTarget('runtime:agent-1')).toEqual({ runtimeId: 'agent-1' });
    expect(parseDiffTarget('rtcp_b')).toEqual({ checkpointId: 'rtcp_b' });
    expect(parseDiffTarget('')).toBeNull();
  });

  it('reads the files view path', () => {
    expect(parseRoute(hrefs.files('rtcp_a', 'src/lib'))).toEqual({ name: 'files', checkpointId: 'rtcp_a', path: 'src/lib' });
    expect(parseRoute('#/checkpoints/rtcp_a/files')).toEqual({ name: 'files', checkpointId: 'rtcp_a', path: '' });
  });

  it('reports unknown paths', () => {
    expect(parseRoute('#/nowhere/at/all')).toEqual({ name: 'not-found', hash: '#/nowhere/at/all' });
  });
});
