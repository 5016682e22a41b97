import type { TestProject } from 'vitest/node';
import { startTestPostgres } from './start-test-postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The PostgreSQL every test file of this run uses (one schema per file or test). */
    runtimectlTestDatabaseUrl: string;
  }
}

/** The environment variable naming a PostgreSQL to test against instead of starting one. */
export const TEST_DATABASE_URL_ENV = 'RUNTIMECTL_TEST_DATABASE_URL';

/**
 * A vitest `globalSetup`: ONE real PostgreSQL for the whole test run. Uses the server named by
 * RUNTIMECTL_TEST_DATABASE_URL when it is set (a person's or CI's own server), else starts one
 * (`startTestPostgres`) and stops and removes it when the run ends. Tests read the URL with
 * `testDatabaseUrl()`. Wire it in a package's vitest config:
 * `globalSetup: ['./test/postgres-global-setup.ts']` with that file re-exporting `setup`.
 */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env[TEST_DATABASE_URL_ENV];
  if (given) {
    project.provide('runtimectlTestDatabaseUrl', given);
    return async () => {};
  }
  const server = await startTestPostgres();
  project.provide('runtimectlTestDatabaseUrl', server.url);
  return () => server.remove();
}
