/**
 * A deep copy of a store record. Records are JSON-shaped (plain objects, arrays, strings,
 * numbers, booleans, null), so walking them does what `structuredClone` does, about ten times
 * faster on the small records the memory store copies on every read and write (structuredClone
 * serialises and deserialises, which dominates for a record of a dozen fields).
 */
export function copyRecord<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copyRecord) as T;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = copyRecord((value as Record<string, unknown>)[key]);
  return copy as T;
}
