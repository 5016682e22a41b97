/** Where the runtime API's routes live. */
export const API_PREFIX = '/api/v1';
