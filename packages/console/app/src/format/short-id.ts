/** `rtcp_0123456789abcdef…` → `rtcp_01234567`: enough to tell checkpoints apart in a label. */
export function shortId(id: string): string {
  const underscore = id.indexOf('_');
  const prefixLength = underscore === -1 ? 0 : underscore + 1;
  return id.length > prefixLength + 8 ? id.slice(0, prefixLength + 8) : id;
}
