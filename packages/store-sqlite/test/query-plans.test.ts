import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../src/index';
import { STATEMENT_SQL } from '../src/store-statements';
import { WEBHOOK_STATEMENT_SQL } from '../src/sqlite-webhook-log';
import { API_KEY_STATEMENT_SQL } from '../src/sqlite-api-keys';
import { temporaryDirectory } from './temp-directory';

/** The index each lookup the service does must be served by. */
const EXPECTED_INDEX: Partial<Record<keyof typeof STATEMENT_SQL, string>> = {
  getSession: 'sqlite_autoindex_sessions_1',
  listSessions: 'sqlite_autoindex_sessions_1',
  listSessionsWithStatus: 'sessions_by_status',
  listSessionsOnProvider: 'sessions_by_backend_provider',
  listSessionsOnProviderWithStatus: 'sessions_by_backend_provider_status',
  listChildSessions: 'sessions_by_parent',
  listSessionsBySourceSnapshot: 'sessions_by_source_snapshot',
  listSessionsByBackend: 'sessions_by_backend',
  countSessionsByStatus: 'sessions_by_status',
  countSessionsByHomeNode: 'sessions_by_home_node',
  getCheckpoint: 'sqlite_autoindex_checkpoints_1',
  listCheckpoints: 'checkpoints_by_runtime',
  listCheckpointsAfter: 'checkpoints_by_runtime',
  listCheckpointsBySnapshot: 'checkpoints_by_snapshot',
  listSnapshotIdsOfRuntime: 'checkpoints_by_runtime',
  listIntents: 'intents_by_age',
  getIdempotencyKey: 'sqlite_autoindex_idempotency_keys_1',
  deleteExpiredIdempotencyKeys: 'idempotency_keys_by_expiry',
  oldestCompletedIdempotencyKeys: 'idempotency_keys_completed_by_age',
};

/** Placeholder values for a statement's parameters, positional or named. */
function placeholderParameters(sql: string): unknown[] {
  const named = [...sql.matchAll(/@(\w+)/g)].map((match) => match[1]!);
  if (named.length > 0) return [Object.fromEntries(named.map((name) => [name, 'x']))];
  return Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => 'x');
}

interface Plan {
  name: keyof typeof STATEMENT_SQL;
  plan: string[];
}

describe('query plans of a migrated database', () => {
  let plans: Plan[] = [];

  beforeAll(async () => {
    const directory = temporaryDirectory();
    try {
      const path = join(directory.path, 'plans.db');
      await createSqliteStore({ path }).close();
      const db = new Database(path, { readonly: true });
      plans = Object.entries(STATEMENT_SQL).map(([name, sql]) => ({
        name: name as keyof typeof STATEMENT_SQL,
        plan: (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...placeholderParameters(sql)) as Array<{ detail: string }>).map(
          (row) => row.detail,
        ),
      }));
      db.close();
    } finally {
      directory.remove();
    }
  });

  it('every lookup the service does is served by its index, never a table scan or a sort', () => {
    for (const { name, plan } of plans) {
      const expected = EXPECTED_INDEX[name];
      if (!expected) continue;
      expect(plan.join(' | '), name).toContain(`INDEX ${expected}`);
      expect(plan.filter((line) => /^SCAN (sessions|checkpoints|intents|idempotency_keys)$/.test(line)), name).toStrictEqual([]);
      expect(plan.filter((line) => line.includes('FOR ORDER BY')), name).toStrictEqual([]);
    }
  });

  it('writes check foreign keys through indexes, never by scanning a table', () => {
    for (const { name, plan } of plans.filter((entry) => entry.name.startsWith('upsert'))) {
      expect(plan.filter((line) => line.startsWith('SCAN')), name).toStrictEqual([]);
    }
  });
});

/** Runs `check` with the plan of any statement (its details joined by " | ") on a fresh store file. */
async function withPlans(name: string, check: (planOf: (sql: string) => string) => void): Promise<void> {
  const directory = temporaryDirectory();
  try {
    const path = join(directory.path, `${name}.db`);
    await createSqliteStore({ path }).close();
    const db = new Database(path, { readonly: true });
    try {
      check((sql) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...placeholderParameters(sql)) as Array<{ detail: string }>).map((row) => row.detail).join(' | '));
    } finally {
      db.close();
    }
  } finally {
    directory.remove();
  }
}

describe('query plans of the webhook statements', () => {
  it("a webhook's deliveries are read newest first, and pruned, through their indexes: no scan, no sort", async () => {
    await withPlans('webhook-plans', (planOf) => {
      const list = planOf(WEBHOOK_STATEMENT_SQL.listWebhookDeliveries);
      expect(list).toContain('INDEX webhook_deliveries_by_webhook');
      expect(list).not.toContain('FOR ORDER BY');
      expect(planOf(WEBHOOK_STATEMENT_SQL.pruneWebhookDeliveries)).toContain('INDEX webhook_deliveries_by_time');
    });
  });
});

describe('query plans of the API key statements', () => {
  it('a presented token is looked up by its hash through an index, never a scan (every unknown token costs this lookup)', async () => {
    await withPlans('api-key-plans', (planOf) => {
      expect(planOf(API_KEY_STATEMENT_SQL.findApiKey)).toMatch(/SEARCH api_keys USING INDEX/);
    });
  });
});
