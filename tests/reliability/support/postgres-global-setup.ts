// One real PostgreSQL for the whole run (or RUNTIMECTL_TEST_DATABASE_URL's): each fleet rig takes a schema of its own on it.
export { setup } from '@runtimectl/testkit/postgres';
