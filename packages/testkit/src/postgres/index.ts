export { startTestPostgres, type TestPostgres, type TestPostgresOptions } from './start-test-postgres';
export { setup, TEST_DATABASE_URL_ENV } from './postgres-global-setup';
export { createTestSchema, testDatabaseUrl, type TestSchema } from './test-schema';
