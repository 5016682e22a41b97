/** A concrete URL for a route pattern: parameters and wildcards filled with plausible values (`rt-a` the runtime). */
export const concreteUrl = (pattern: string) =>
  pattern
    .replace(':runtime_id', 'rt-a')
    .replace(':checkpoint_id', `rtcp_${'0'.repeat(32)}`)
    .replace(/:[A-Za-z_]+/g, 'x')
    .replace('*', 'index.html');
