import { describe, expect, it } from 'vitest';
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
});
