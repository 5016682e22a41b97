import { NODE_COLUMNS } from '@runtimectl/core';
import { quoted } from './sql-names';

/** The database clock in ms since the epoch: every lease and heartbeat time is measured on it, never a node's. */
const NOW_MS = 'floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint';

/** The lease, node and installation statements on the tables of `schema` (names qualified). */
export function fleetStatements(schema: string) {
  const table = (name: string) => `${quoted(schema)}.${name}`;
  const leases = table('runtime_leases');
  const renew = `UPDATE ${leases} SET expires_at = clock_timestamp() + $2 * interval '1 millisecond' WHERE holder_id = $1 AND expires_at > clock_timestamp()`;
  return {
    /** One call (see the function in schema version 3); answers `{ token, conflict }`. */
    acquire: `SELECT token, conflict FROM ${table('acquire_runtime_lease')}($1, $2, $3, $4)`,
    release: `DELETE FROM ${leases} WHERE token = $1 AND runtime_id = $2`,
    renew,
    busy: `SELECT DISTINCT runtime_id FROM ${leases} WHERE mode <> 'checkout' AND expires_at > clock_timestamp() ORDER BY runtime_id`,
    /**
     * The fences of a commit that are still unexpired leases, locked FOR SHARE until the commit
     * ends: an acquire that would take over the runtime deletes the lapsed row first, and so
     * waits for this commit instead of interleaving with it.
     */
    liveFences:
      `SELECT l.token::text AS token FROM ${leases} l JOIN unnest($1::bigint[], $2::text[]) AS f (token, runtime_id) ` +
      'ON l.token = f.token AND l.runtime_id = f.runtime_id WHERE l.expires_at > clock_timestamp() FOR SHARE OF l',
    /** The node's record, and the end of every lease its previous life held, in one statement. */
    registerNode:
      `WITH ended AS (DELETE FROM ${leases} WHERE holder_id = $1) INSERT INTO ${table('nodes')} (${NODE_COLUMNS.join(', ')}) VALUES ($1, $2, $3, $4, ${NOW_MS}) ` +
      `ON CONFLICT (node_id) DO UPDATE SET ${NODE_COLUMNS.filter((column) => column !== 'node_id')
        .map((column) => `${column} = excluded.${column}`)
        .join(', ')}`,
    /** The heartbeat and the renewal of the node's leases in one statement. */
    heartbeat: `WITH beat AS (UPDATE ${table('nodes')} SET heartbeat_at_ms = ${NOW_MS} WHERE node_id = $1) ${renew}`,
    listNodes: `SELECT ${NODE_COLUMNS.join(', ')} FROM ${table('nodes')} ORDER BY node_id`,
    now: `SELECT ${NOW_MS} AS now_ms`,
    /**
     * Inserts the candidate unless an id is stored, and answers the stored one. A claim racing
     * another's insert sees no row (its snapshot predates that insert): the caller reads again.
     */
    claimInstallationId:
      `WITH inserted AS (INSERT INTO ${table('installation')} (id, installation_id) VALUES (1, $1) ON CONFLICT (id) DO NOTHING RETURNING installation_id) ` +
      `SELECT installation_id FROM inserted UNION ALL SELECT installation_id FROM ${table('installation')} WHERE id = 1`,
    installationId: `SELECT installation_id FROM ${table('installation')} WHERE id = 1`,
  };
}

export type FleetStatements = ReturnType<typeof fleetStatements>;
