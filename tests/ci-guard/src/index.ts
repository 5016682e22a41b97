import type { InlineConfig } from 'vitest/node';
import { PackageWatchdog, type PackageWatchdogOptions } from './package-watchdog';

export { PackageWatchdog, PACKAGE_BOUND_ENV, DEFAULT_PACKAGE_BOUND_MS, type PackageWatchdogOptions } from './package-watchdog';
export { descendantsOf, killDescendants } from './process-tree';

/** The JSON report CI sums (scripts/test-summary.mjs reads it in every package). */
export const TEST_REPORT_FILE = 'test-results.json';

/**
 * The reporters of every package's vitest config: vitest's own output, the JSON report CI sums,
 * and the watchdog that bounds the package's run (`PackageWatchdog`).
 */
export function ciReporters(options: Omit<PackageWatchdogOptions, 'outputFile'> = {}): NonNullable<InlineConfig['reporters']> {
  return ['default', ['json', { outputFile: TEST_REPORT_FILE }], new PackageWatchdog({ ...options, outputFile: TEST_REPORT_FILE })];
}
