/**
 * One step of a SQL store's schema. `version` is what the database records once `sql` has run;
 * versions are 1, 2, 3… with no gaps. A migration runs inside the same transaction as the
 * version bump, so it is applied entirely or not at all. A released step is never edited: a
 * schema change is ONE new step appended to the store's list.
 */
export interface SchemaMigration {
  version: number;
  description: string;
  sql: string;
}
