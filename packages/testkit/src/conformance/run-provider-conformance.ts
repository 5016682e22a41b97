import { describe } from 'vitest';
import type { ProviderConformanceOptions } from './conformance-options';
import { backgroundJobTests } from './background-job-tests';
import { capabilityTests } from './capability-tests';
import { dirtyTrackingTests } from './dirty-tracking-tests';
import { errorPrivacyTests } from './error-privacy-tests';
import { execTests } from './exec-tests';
import { exportTests } from './export-tests';
import { fileLimitsTests } from './file-limits-tests';
import { filesTests } from './files-tests';
import { isolationTests } from './isolation-tests';
import { lifecycleTests } from './lifecycle-tests';
import { manifestTests } from './manifest-tests';
import { snapshotFileTests } from './snapshot-file-tests';
import { ownershipTests } from './ownership-tests';
import { pathRuleTests } from './path-rule-tests';
import { pauseResumeCycleTests } from './pause-resume-cycle-tests';
import { searchTests } from './search-tests';
import { snapshotTests } from './snapshot-tests';
import { symlinkTests } from './symlink-tests';

/**
 * The provider conformance suite: call it at the top level of a vitest test file with a factory
 * that makes a fresh provider per test. Registers one `describe` per area (lifecycle, files, file
 * limits and special files, the path rule, symbolic links leading out, exec, command isolation, search, export, dirty tracking through core, background jobs,
 * snapshots, declared capabilities (locality, snapshot kind, restore verification), pause/resume cycles, content manifests, snapshot files, ownership, error privacy); each area is exported on its own too.
 */
export function runProviderConformance(options: ProviderConformanceOptions): void {
  describe(`provider conformance: ${options.name}`, () => {
    lifecycleTests(options);
    filesTests(options);
    fileLimitsTests(options);
    pathRuleTests(options);
    symlinkTests(options);
    execTests(options);
    isolationTests(options);
    searchTests(options);
    exportTests(options);
    dirtyTrackingTests(options);
    backgroundJobTests(options);
    snapshotTests(options);
    capabilityTests(options);
    pauseResumeCycleTests(options);
    manifestTests(options);
    snapshotFileTests(options);
    ownershipTests(options);
    errorPrivacyTests(options);
  });
}
