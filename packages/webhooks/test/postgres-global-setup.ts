export { setup } from '@runtimectl/testkit/postgres';
