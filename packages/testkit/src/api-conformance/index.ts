export { runApiConformance } from './run-api-conformance';
export type { ApiConformanceOptions, ApiConformanceTimeouts } from './api-conformance-options';
export { CONTRACT_ROUTES } from './service-api-tests';
