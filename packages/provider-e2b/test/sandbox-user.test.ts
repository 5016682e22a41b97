import { describe, expect, it } from 'vitest';
import { e2bProviderDefinition } from '../src/index';
import { createRequest, useEmulator, useProviders } from './support/emulator-fixture';

// Issue 37 part 3: the provider runs as E2B's default user unless configured otherwise. Who ran a
// command shows in what envd gave it (USER, LOGNAME and HOME, from the user the SDK named) and in
// its uid: 1000 for `user` and 0 for root where the emulator runs as root and so makes them two
// identities, as on E2B; else one (docs/e2b-emulator-fidelity.md, "Users"), uid 0 inside.
const emulator = await useEmulator();
const provider = useProviders(emulator);

async function whoRuns(settings: { user?: string } = {}): Promise<string> {
  const e2b = provider(settings);
  const backend = await e2b.create(createRequest('sandbox-user'));
  try {
    const result = await backend.exec({ command: 'printf "%s %s %s %s" "$USER" "$LOGNAME" "$HOME" "$(id -u)"', maxOutputBytes: 1024 });
    expect(result.exitCode).toBe(0);
    return Buffer.from(result.stdout).toString();
  } finally {
    await e2b.release({ backendId: 'sandbox-user', resource: backend.resource });
  }
}

describe('the sandbox user', () => {
  it('commands run as user `user` by default', async () => {
    expect(await whoRuns()).toBe(`user user /home/user ${emulator.isolation.users ? 1000 : 0}`);
  });

  it('`user: "root"` runs commands as root', async () => {
    expect(await whoRuns({ user: 'root' })).toBe('root root /root 0');
  });

  it('files the runtime writes are its user\'s: a command as that user reads and replaces them', async () => {
    const e2b = provider();
    const backend = await e2b.create(createRequest('sandbox-user'));
    try {
      await backend.writeBytes('notes/a.txt', new TextEncoder().encode('written by the file API'));
      const result = await backend.exec({ command: 'cat notes/a.txt && echo replaced > notes/a.txt', maxOutputBytes: 1024 });
      expect(Buffer.from(result.stdout).toString()).toBe('written by the file API');
      expect(new TextDecoder().decode(await backend.readBytes('notes/a.txt'))).toBe('replaced\n');
    } finally {
      await e2b.release({ backendId: 'sandbox-user', resource: backend.resource });
    }
  });

  it('runtimed\'s [providers.e2b] user defaults to `user`, takes "root", and refuses what is not a user name', () => {
    expect(e2bProviderDefinition.settings.parse({}).user).toBe('user');
    expect(e2bProviderDefinition.settings.parse({ user: 'root' }).user).toBe('root');
    expect(e2bProviderDefinition.settings.safeParse({ user: 'root:0' }).success).toBe(false);
  });
});
