import { describe, expect, it } from 'vitest';
import { createE2BProvider } from './e2b-provider';
import { e2bRuntimeOptionsSchema } from './runtime-options';
import { snapshotNameFor } from './snapshot-names';

describe('e2b provider_options', () => {
  it('accept ordinary template names and ids', () => {
    for (const template of ['base', 'my-team/python:latest', 'qlgcj61btlqza05okzjj']) {
      expect(e2bRuntimeOptionsSchema.safeParse({ template }).success, template).toBe(true);
    }
  });

  it('refuse a runtimectl snapshot as a template, bare, team-qualified or tagged', () => {
    const name = snapshotNameFor({ runtimectl_installation: 'inst-1', runtimectl_ref_id: 'bcp_0123' })!;
    for (const template of [name, `team/${name}`, `team/${name}:default`, `${name}:v2`, 'rtctl-anything']) {
      expect(e2bRuntimeOptionsSchema.safeParse({ template }).success, template).toBe(false);
    }
  });

  it('refuse a runtime timeout_ms under the provider\'s minSandboxTimeoutMs (runtimed: over twice the fleet lease), naming the option', () => {
    const provider = createE2BProvider({ apiKey: 'e2b_test', minSandboxTimeoutMs: 30_001 });
    const refused = provider.runtimeOptionsSchema.safeParse({ timeout_ms: 30_000 });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['timeout_ms']);
    expect(provider.runtimeOptionsSchema.safeParse({ timeout_ms: 30_001 }).success).toBe(true);
    expect(e2bRuntimeOptionsSchema.safeParse({ timeout_ms: 1_000 }).success, 'without a minimum: E2B\'s 1 s').toBe(true);
    expect(() => createE2BProvider({ apiKey: 'e2b_test', minSandboxTimeoutMs: 30_001, sandboxTimeoutMs: 30_000 })).toThrow(/sandboxTimeoutMs must be an integer from 30001/);
  });
});

