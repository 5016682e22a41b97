import { afterAll, describe } from 'vitest';
import { authApiTests } from './auth-api-tests';
import { checkoutChildrenApiTests } from './checkout-children-api-tests';
import { retentionApiTests } from './retention-api-tests';
import { resolveApiConformanceOptions, type ApiConformanceOptions } from './api-conformance-options';
import { createApiSuiteContext } from './api-suite-context';
import { dataApiTests } from './data-api-tests';
import { diffApiTests } from './diff-api-tests';
import { runtimeApiTests } from './runtime-api-tests';
import { scopedKeyApiTests } from './scoped-key-api-tests';
import { serviceApiTests } from './service-api-tests';
import { snapshotSemanticsTests } from './snapshot-semantics-tests';
import { unsupportedBackendTests } from './unsupported-backend-tests';

/**
 * Registers the black-box HTTP conformance suite (vitest) for a live runtimectl daemon at
 * `baseUrl`: every route, the error codes and body shape, request ids, auth (when `token` is
 * given; with it, API keys made at run time on every route), pagination, and — on `snapshotProvider` — the checkpoint / checkout / pause / resume /
 * delete-snapshot / close semantics, N-way checkout / fork and checkpoint diff; a provider without snapshots must answer 501.
 * Talks HTTP only (global fetch). Runtime ids are unique per run (`ac-<hex>-…`); every runtime
 * the suite opened or checked out is closed (cascade, snapshots deleted) afterwards.
 */
export function runApiConformance(options: ApiConformanceOptions): void {
  const resolved = resolveApiConformanceOptions(options);
  describe(`runtimectl HTTP API conformance: ${resolved.name}`, () => {
    const context = createApiSuiteContext(resolved);

    afterAll(async () => {
      // Children first would not matter: cascade closes descendants, and closing a closed runtime is a no-op.
      for (const runtimeId of [...context.client.openedRuntimeIds].sort()) {
        await context.client.post('/api/v1/runtimes/close', { runtime_id: runtimeId, cascade: true });
      }
    }, resolved.timeouts.hookMs);

    serviceApiTests(context);
    authApiTests(context);
    scopedKeyApiTests(context);
    runtimeApiTests(context);
    dataApiTests(context);
    snapshotSemanticsTests(context);
    checkoutChildrenApiTests(context);
    retentionApiTests(context);
    diffApiTests(context);
    unsupportedBackendTests(context);
  });
}
