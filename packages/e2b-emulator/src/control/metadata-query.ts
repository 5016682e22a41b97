/**
 * Decodes the `metadata` filter of `GET /v2/sandboxes`. The SDK encodes each key and value
 * with encodeURIComponent, joins them with URLSearchParams (a second encoding), and the
 * query serializer encodes the whole string once more. After the normal query decode the
 * value is parsed as x-www-form-urlencoded, then each key and value is decoded once more.
 */
import { ApiError } from '../http/api-error.js';

export function decodeMetadataQuery(value: string | null): Record<string, string> | undefined {
  if (value === null || value === '') return undefined;
  const filter: Record<string, string> = {};
  for (const [key, item] of new URLSearchParams(value)) {
    try {
      filter[decodeURIComponent(key)] = decodeURIComponent(item);
    } catch {
      throw new ApiError(400, 'invalid metadata filter encoding');
    }
  }
  return filter;
}

/** True when every filter pair is present in the metadata with the same value. */
export function matchesMetadata(metadata: Record<string, string>, filter: Record<string, string> | undefined): boolean {
  if (!filter) return true;
  return Object.entries(filter).every(([key, value]) => metadata[key] === value);
}
