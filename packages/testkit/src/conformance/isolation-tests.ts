import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { conformanceArea } from './conformance-area';
import type { ProviderConformanceOptions } from './conformance-options';
import { text } from './expect-helpers';
import { hostLoopbackCases } from './host-loopback-cases';
import { resourceLimitCases } from './resource-limit-cases';
import { workspacePathCases } from './workspace-path-cases';

const NEEDS_ISOLATION = 'needs capabilities.isolatedCommands (and posixShell): commands run isolated from the process running the provider';

/** Everything a command can try to read of its daemon: every environ in /proc, named paths; errors are silenced. */
function snoopCommand(paths: string[]): string {
  const targets = paths.map((path) => `'${path.replace(/'/g, `'\\''`)}'`).join(' ');
  return [
    `for f in /proc/$PPID/environ /proc/${process.pid}/environ /proc/[0-9]*/environ; do cat "$f" 2>/dev/null; echo; done`,
    `for p in ${targets}; do cat "$p" 2>/dev/null; ls -a "$p" 2>/dev/null; done`,
    'true',
  ].join('\n');
}

/**
 * Isolation of commands from the daemon (with `capabilities.isolatedCommands`): an agent's
 * command is untrusted, so it must not read the environment of the process running the provider
 * (where a bearer token and API keys live), files of the daemon's state directory, or another
 * backend's workspace. Then isolation v2 (issue 31), for every provider whose commands are
 * isolated: one workspace path for a backend's whole life, no way to the host's loopback, and
 * resource limits (with `options.limits`).
 */
export function isolationTests(options: ProviderConformanceOptions): void {
  conformanceArea(options, 'command isolation', (area) => {
    const { harness, test, options: resolved } = area;
    const notIsolated = !resolved.capabilities.isolatedCommands || !resolved.capabilities.posixShell ? NEEDS_ISOLATION : undefined;
    workspacePathCases(area, notIsolated);
    hostLoopbackCases(area, notIsolated);
    resourceLimitCases(area, notIsolated);

    test("a command cannot read its daemon's environment or state directory", async (context) => {
      context.skip(!resolved.capabilities.isolatedCommands || !resolved.capabilities.posixShell, NEEDS_ISOLATION);
      // The daemon's environment as the kernel shows it in /proc: whole, it is unique to this process.
      const daemonEnviron = readFileSync('/proc/self/environ');
      expect(daemonEnviron.byteLength).toBeGreaterThan(0);
      const secret = `state-secret-${randomBytes(12).toString('hex')}`;
      const stateDir = await mkdtemp(join(tmpdir(), 'runtimectl-daemon-state-'));
      try {
        await writeFile(join(stateDir, 'runtimectl.db'), secret);
        const { backend } = await harness.createBackend();
        const marker = `own-${randomBytes(6).toString('hex')}`;
        const result = await backend.exec({
          command: snoopCommand([join(stateDir, 'runtimectl.db'), stateDir]),
          env: { ISOLATION_MARKER: marker },
          maxOutputBytes: 4 * 1024 * 1024,
          timeoutMs: 20_000,
        });
        const output = Buffer.from(result.stdout);
        // The command could read /proc: its own environment is in the output.
        expect(text(result.stdout)).toContain(`ISOLATION_MARKER=${marker}`);
        expect(output.includes(daemonEnviron)).toBe(false);
        expect(text(result.stdout)).not.toContain(secret);
        expect(text(result.stdout)).not.toContain('runtimectl.db');
      } finally {
        await rm(stateDir, { recursive: true, force: true });
      }
    });

    test("a command cannot read another backend's workspace", async (context) => {
      context.skip(!resolved.capabilities.isolatedCommands || !resolved.capabilities.posixShell, NEEDS_ISOLATION);
      const secret = `other-${randomBytes(12).toString('hex')}`;
      const { backend: other } = await harness.createBackend();
      await other.writeBytes(`${secret}.txt`, new TextEncoder().encode(secret));
      const { backend } = await harness.createBackend();
      // Both may see their workspace at one path (isolation v2), so looking there proves nothing:
      // the file is searched for by its unique name across everything the command can see.
      const result = await backend.exec({
        command: `${snoopCommand([join(other.workspaceRoot, `${secret}.txt`)])}
find / -xdev -name '${secret}.txt' -print 2>/dev/null; find /tmp /home /workspace -name '${secret}.txt' -print 2>/dev/null; true`,
        maxOutputBytes: 4 * 1024 * 1024,
        timeoutMs: 20_000,
      });
      expect(text(result.stdout)).not.toContain(secret);
    });
  });
}
