// A store made before webhook events, attempts and secret overlaps were kept opens with its
// endpoints and deliveries whole: on DuckDB the tables gain their columns when opened, on
// PostgreSQL migration 6 adds them. Each old delivery gets an event id shared by the deliveries of
// its snapshot, its last attempt kept as the one known, and it can be listed, sent again and
// claimed like a new one.
import path from 'node:path'
import { describe, expect, inject, it } from 'vitest'
import { Database } from '../server/store/database.ts'
import { PgDatabase } from '../server/store/postgres/pg-database.ts'
import { MIGRATIONS, migrate } from '../server/store/postgres/pg-migrations.ts'
import { pgWebhookTable } from '../server/store/postgres/pg-webhooks.ts'
import { duckdbWebhookTable, type WebhookTable } from '../server/store/webhooks.ts'
import { createTestDatabase } from './support/postgres-server.ts'
import { tempDir } from './support/temp-dirs.ts'

// The webhook tables as the release before created them in DuckDB (migration 5 in PostgreSQL).
const DUCKDB_BEFORE = [
  `CREATE TABLE webhooks (
     id VARCHAR PRIMARY KEY, account_id VARCHAR NOT NULL, url VARCHAR NOT NULL, secret VARCHAR NOT NULL,
     created_at VARCHAR NOT NULL, failing_since VARCHAR, disabled_at VARCHAR, disabled_reason VARCHAR)`,
  `CREATE TABLE webhook_deliveries (
     id VARCHAR PRIMARY KEY, webhook_id VARCHAR NOT NULL, account_id VARCHAR NOT NULL, snapshot VARCHAR NOT NULL,
     change_count BIGINT NOT NULL, body VARCHAR NOT NULL, status VARCHAR NOT NULL, attempts BIGINT NOT NULL,
     created_at VARCHAR NOT NULL, next_attempt_at VARCHAR, claimed_until VARCHAR, last_attempt_at VARCHAR,
     last_status BIGINT, last_error VARCHAR, delivered_at VARCHAR)`,
  `CREATE TABLE webhook_announcements (snapshot VARCHAR PRIMARY KEY, announced_at VARCHAR NOT NULL, change_count BIGINT NOT NULL)`,
  `CREATE TABLE webhook_announced_changes (identity VARCHAR PRIMARY KEY, snapshot VARCHAR NOT NULL)`,
]

const SNAPSHOT = '2026-03-01T03-00-00-000Z'
const oldBody = (id: string, webhookId: string) =>
  JSON.stringify({ id, type: 'rate_changes.announced', created_at: '2026-03-01T03:01:00.000Z', webhook_id: webhookId, snapshot: SNAPSHOT, previous_snapshot: '2026-02-22T03-00-00-000Z', changes: [] })

/** Two endpoints of one account, each with a delivery of SNAPSHOT: one delivered after a 503, one pending after a timeout. */
const OLD_ROWS: { sql: string; params: (string | number | null)[] }[] = [
  ...['wh_a', 'wh_b'].map((id) => ({ sql: 'INSERT INTO webhooks VALUES ($1, $2, $3, $4, $5, NULL, NULL, NULL)', params: [id, 'acct', `https://example.com/${id}`, `whsec_${id}_secret_0123456789`, '2026-02-01T00:00:00.000Z'] })),
  {
    sql: 'INSERT INTO webhook_deliveries VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)',
    params: ['whd_old_a', 'wh_a', 'acct', SNAPSHOT, 0, oldBody('whd_old_a', 'wh_a'), 'delivered', 2, '2026-03-01T03:01:00.000Z', null, null, '2026-03-01T03:02:00.000Z', 200, null, '2026-03-01T03:02:00.000Z'],
  },
  {
    sql: 'INSERT INTO webhook_deliveries VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)',
    params: ['whd_old_b', 'wh_b', 'acct', SNAPSHOT, 0, oldBody('whd_old_b', 'wh_b'), 'pending', 1, '2026-03-01T03:01:00.000Z', '2026-03-01T03:02:00.000Z', null, '2026-03-01T03:01:00.000Z', null, 'no answer within 10000 ms', null],
  },
]

async function expectUpgraded(table: WebhookTable) {
  expect((await table.list('acct')).map((e) => [e.id, e.previousSecret, e.previousSecretExpiresAt])).toEqual([
    ['wh_a', null, null],
    ['wh_b', null, null],
  ])
  const a = await table.delivery('acct', 'wh_a', 'whd_old_a')
  const b = await table.delivery('acct', 'wh_b', 'whd_old_b')
  expect(a).toMatchObject({ status: 'delivered', attempts: 2, eventType: 'rate_changes.announced', onRequest: false, redeliveryOf: null })
  expect(a!.eventId).toMatch(/^evt_[0-9a-f]{24}$/)
  expect(b!.eventId).toBe(a!.eventId)
  expect(a!.attemptLog).toEqual([{ attempt: 2, startedAt: '2026-03-01T03:02:00.000Z', status: 200, durationMs: null, error: null }])
  expect(b!.attemptLog).toEqual([{ attempt: 1, startedAt: '2026-03-01T03:01:00.000Z', status: null, durationMs: null, error: 'no answer within 10000 ms' }])
  // The pending one is claimed and recorded as any other.
  const [claimed] = await table.claimDue('2026-03-01T03:03:00.000Z', '2026-03-01T03:04:00.000Z', 10)
  expect(claimed).toMatchObject({ id: 'whd_old_b', eventType: 'rate_changes.announced', attempts: 2, secrets: ['whsec_wh_b_secret_0123456789'] })
  await table.delivered('whd_old_b', 'wh_b', '2026-03-01T03:03:01.000Z', 204, { attempt: 2, startedAt: '2026-03-01T03:03:00.000Z', durationMs: 12 })
  expect((await table.delivery('acct', 'wh_b', 'whd_old_b'))!.attemptLog.map((x) => [x.attempt, x.status, x.durationMs])).toEqual([
    [1, null, null],
    [2, 204, 12],
  ])
}

describe('a store made before webhook events and attempts were kept', () => {
  it('opens on DuckDB with every endpoint and delivery, given their event ids and last attempts', async () => {
    const file = path.join(await tempDir('webhook-upgrade'), 'store.duckdb')
    const before = await Database.open(file)
    try {
      for (const statement of DUCKDB_BEFORE) await before.run(statement)
      for (const row of OLD_ROWS) await before.run(row.sql.replace(/\$\d+/g, '?'), row.params)
    } finally {
      await before.close()
    }
    const db = await Database.open(file)
    try {
      await expectUpgraded(await duckdbWebhookTable(db))
      // Opening again changes nothing more.
      await duckdbWebhookTable(db)
      expect((await db.rows('SELECT count(*) AS n FROM webhook_attempts'))[0]!.n).toBe(3n)
    } finally {
      await db.close()
    }
  })

  // Its own database either way: run once, in the default project.
  it.skipIf(process.env.TAXATLAS_TEST_STORE === 'postgres')('is migrated on PostgreSQL by migration 6, keeping every endpoint and delivery', async () => {
    const db = PgDatabase.connect(await createTestDatabase(inject('postgresUrl'), 'webhook_upgrade'), { size: 2, name: 'webhook upgrade test' })
    try {
      await migrate(db, MIGRATIONS.filter((m) => m.id <= 5))
      for (const row of OLD_ROWS) await db.run(row.sql, row.params)
      expect(await migrate(db, MIGRATIONS.filter((m) => m.id <= 6))).toEqual([6])
      await expectUpgraded(pgWebhookTable(db))
    } finally {
      await db.close()
    }
  })
})
