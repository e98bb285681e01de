// A lookup by key in the PostgreSQL store reads a few pages however many transactions the account
// holds, even with statistics taken before a large backfill: with the key in its first order
// (migration 1) the planner took the listing index for it and walked every row of the account.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MIGRATIONS } from '../server/store/postgres/pg-migrations.ts'
import { ROWS_OF_KEYS } from '../server/store/postgres/pg-transactions.ts'
import { endMigratedClients, migratedClient } from './support/migrated-pg-client.ts'

const ACCOUNT_ROWS = 300_000
const KEYS = 20

afterAll(endMigratedClients)

/** A database migrated up to `migrations`, whose statistics were taken while it held 100 rows of 100 accounts, then given ACCOUNT_ROWS orders of one account. */
async function backfilledAfterStatistics(migrations: typeof MIGRATIONS): Promise<pg.Client> {
  const client = await migratedClient(migrations, 'key lookup')
  const insert = (account: string, from: number, to: number) =>
    client.query(
      `INSERT INTO transactions (account_id, provider, transaction_id, kind, transaction_date, transaction_at, to_country, to_zip, to_state,
         amount, shipping, sales_tax, marketplace, source, created_at, updated_at)
       SELECT ${account}, 'api', 'order-' || g, 'order', date '2026-01-01' + (g % 300), now(), 'US', '30303', 'GA', 10000, 0, 0, false, 'backfill', now(), now()
       FROM generate_series(${from}, ${to}) AS g`,
    )
  // Autovacuum would refresh the statistics at some moment of its own: here they stay as taken.
  await client.query('ALTER TABLE transactions SET (autovacuum_enabled = false)')
  await insert(`'account-' || g`, 1, 100)
  await client.query('ANALYZE transactions')
  await insert(`'big-account'`, 101, 100 + ACCOUNT_ROWS)
  return client
}

/** Pages the lookup of KEYS new keys of the big account reads, by EXPLAIN ANALYZE. */
async function pagesRead(client: pg.Client): Promise<number> {
  const ids = Array.from({ length: KEYS }, (_, i) => `new-${i}`)
  await client.query('BEGIN')
  try {
    const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${ROWS_OF_KEYS}`, [ids.map(() => 'big-account'), ids.map(() => 'api'), ids, ids.map(() => 'order')])
    const plan = rows[0]['QUERY PLAN'][0].Plan
    return plan["Shared Hit Blocks"] + plan["Shared Read Blocks"]
  } finally {
    await client.query('ROLLBACK')
  }
}

describe('a lookup by key after a large backfill', () => {
  let released: pg.Client
  let current: pg.Client
  beforeAll(async () => {
    released = await backfilledAfterStatistics(MIGRATIONS.filter((m) => m.id < 4))
    current = await backfilledAfterStatistics(MIGRATIONS)
  }, 120_000)

  it('reads a few pages per key with the key in the listing order', async () => {
    expect(await pagesRead(current)).toBeLessThan(KEYS * 10)
  })

  it('walked the account with the key in its first order (what migration 4 is for)', async () => {
    expect(await pagesRead(released)).toBeGreaterThan(ACCOUNT_ROWS / 100)
  })
})
