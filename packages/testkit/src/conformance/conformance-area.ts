import { describe, it, type TestContext } from 'vitest';
import { resolveConformanceOptions, type ProviderConformanceOptions, type ResolvedConformanceOptions } from './conformance-options';
import { useProviderHarness, type ProviderHarness } from './provider-harness';

export interface ConformanceArea {
  harness: ProviderHarness;
  options: ResolvedConformanceOptions;
  /** Registers a test with the configured per-test timeout. */
  test: (name: string, fn: (context: TestContext) => Promise<void>) => void;
}

/** One area of the suite: a `describe` whose tests each get a fresh provider through the harness. */
export function conformanceArea(options: ProviderConformanceOptions, title: string, define: (area: ConformanceArea) => void): void {
  const resolved = resolveConformanceOptions(options);
  describe(title, () => {
    const harness = useProviderHarness(resolved);
    define({ harness, options: resolved, test: (name, fn) => it(name, fn, resolved.timeouts.testMs) });
  });
}
