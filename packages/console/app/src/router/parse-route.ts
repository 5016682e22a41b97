/** The console's views, addressed by the URL hash so the daemon serves one index.html for all of them. */
export type Route =
  | { name: 'runtimes' }
  | { name: 'lineage'; runtimeId: string }
  | { name: 'diff'; from: string; to: string }
  | { name: 'files'; checkpointId: string; path: string }
  | { name: 'events' }
  | { name: 'fleet' }
  | { name: 'not-found'; hash: string };

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function parseRoute(hash: string): Route {
  const text = hash.replace(/^#/, '');
  const questionMark = text.indexOf('?');
  const pathText = questionMark === -1 ? text : text.slice(0, questionMark);
  const query = new URLSearchParams(questionMark === -1 ? '' : text.slice(questionMark + 1));
  const segments = pathText.split('/').filter((segment) => segment !== '').map(decode);
  const [first, second, third] = segments;
  if (segments.length === 0 || (first === 'runtimes' && segments.length === 1)) return { name: 'runtimes' };
  if (first === 'runtimes' && second !== undefined && segments.length === 2) return { name: 'lineage', runtimeId: second };
  if (first === 'diff' && segments.length === 1) return { name: 'diff', from: query.get('from') ?? '', to: query.get('to') ?? '' };
  if (first === 'checkpoints' && second !== undefined && third === 'files' && segments.length === 3) {
    return { name: 'files', checkpointId: second, path: query.get('path') ?? '' };
  }
  if (first === 'events' && segments.length === 1) return { name: 'events' };
  if (first === 'fleet' && segments.length === 1) return { name: 'fleet' };
  return { name: 'not-found', hash };
}

/** The hash of a view: ids are encoded, since checkout children's ids contain ':'. */
export const hrefs = {
  runtimes: () => '#/runtimes',
  lineage: (runtimeId: string) => `#/runtimes/${encodeURIComponent(runtimeId)}`,
  diff: (from: string, to: string) => `#/diff?${new URLSearchParams({ from, to }).toString()}`,
  files: (checkpointId: string, path = '') =>
    `#/checkpoints/${encodeURIComponent(checkpointId)}/files${path ? `?${new URLSearchParams({ path }).toString()}` : ''}`,
  events: () => '#/events',
  fleet: () => '#/fleet',
};

/** `to=runtime:<id>` names a live runtime in the diff route; anything else is a checkpoint id. */
export function parseDiffTarget(to: string): { checkpointId: string } | { runtimeId: string } | null {
  if (to === '') return null;
  if (to.startsWith('runtime:')) return { runtimeId: to.slice('runtime:'.length) };
  return { checkpointId: to };
}
