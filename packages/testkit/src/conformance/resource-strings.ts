import type { BackendResource } from '@runtimectl/core';

/** Every string in a provider resource (sandbox ids, workspace names …), short ones left out: what callers must never see. */
export function resourceStrings(resource: BackendResource): string[] {
  const found: string[] = [];
  const visit = (value: unknown) => {
    if (typeof value === 'string' && value.length >= 6) found.push(value);
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(visit);
  };
  visit(resource);
  return found;
}
