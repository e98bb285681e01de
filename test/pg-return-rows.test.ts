// A return (and a change impact, which reads the same statements) on PostgreSQL reads the pages of
// the account's transactions in its state and period, not every transaction of the account or of
// the table: migration 7's indexes, by the pages EXPLAIN ANALYZE counts.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MIGRATIONS } from '../server/store/postgres/pg-migrations.ts'
import { returnStatements, type ReturnQuery } from '../server/store/return-groups.ts'
import { endMigratedClients, migratedClient } from './support/migrated-pg-client.ts'

const ACCOUNT = 'acct-returns'
const OTHER_ROWS = 200_000
const STATES = ['GA', 'FL', 'TX', 'NY', 'CA', 'WA']
/** the account's transactions per state, dated over 360 days; every PRODUCT_CODE_EVERY-th has a product code in its line items */
const STATE_ROWS = 10_000
const PRODUCT_CODE_EVERY = 500

afterAll(endMigratedClients)

/** A database migrated up to `migrations`, holding other accounts' transactions and the account's, a state after another, and its statistics. */
async function storeOfTransactions(migrations: typeof MIGRATIONS): Promise<pg.Client> {
  const client = await migratedClient(migrations, 'return rows')
  const insert = (prefix: string, account: string, state: string, rows: number, lineItems: string) =>
    client.query(
      `INSERT INTO transactions (account_id, provider, transaction_id, kind, transaction_date, transaction_at, to_country, to_zip, to_state,
         amount, shipping, sales_tax, marketplace, line_items, source, created_at, updated_at)
       SELECT ${account}, 'api', '${prefix}-' || g, 'order', date '2026-01-01' + (g * 360 / ${rows}), now(), 'US', '30303', ${state},
         10000, 500, 700, false, ${lineItems}, 'backfill', now(), now()
       FROM generate_series(0, ${rows - 1}) AS g`,
    )
  await insert('other', `'other-' || (g % 40)`, `(ARRAY['GA', 'FL', 'TX'])[1 + g % 3]`, OTHER_ROWS, 'NULL')
  const productCode = `CASE WHEN g % ${PRODUCT_CODE_EVERY} = 0 THEN '[{"quantity":1,"unit_price":100,"product_tax_code":"20010"}]' END`
  for (const state of STATES) await insert(state, `'${ACCOUNT}'`, `'${state}'`, STATE_ROWS, productCode)
  await client.query('VACUUM ANALYZE transactions')
  return client
}

/** Pages the statements of a return read, by EXPLAIN ANALYZE, and the rows they give. */
async function returnReads(client: pg.Client, query: ReturnQuery): Promise<{ pages: number; rows: number }> {
  let pages = 0
  let rows = 0
  for (const statement of Object.values(returnStatements(ACCOUNT, query, (i) => `$${i}`))) {
    const result = await client.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${statement.sql}`, statement.params)
    const plan = result.rows[0]['QUERY PLAN'][0].Plan
    pages += plan['Shared Hit Blocks'] + plan['Shared Read Blocks']
    rows += plan['Actual Rows']
  }
  return { pages, rows }
}

const QUARTERS: [string, ReturnQuery][] = [
  ['a quarter of a state', { state: 'GA', from: '2026-04-01', to: '2026-06-30', origin: false, breaks: [], itemizeAbove: null }],
  // FL: a return also reads on their own the transactions above the per-item cap on local taxes.
  ['a quarter of a state with a per-item cap', { state: 'FL', from: '2026-04-01', to: '2026-06-30', origin: false, breaks: ['2026-05-01'], itemizeAbove: 50_000_000 }],
]

describe('the transactions a return reads on PostgreSQL', () => {
  let released: pg.Client
  let current: pg.Client
  beforeAll(async () => {
    released = await storeOfTransactions(MIGRATIONS.filter((m) => m.id < 7))
    current = await storeOfTransactions(MIGRATIONS)
  }, 180_000)

  // The quarter's transactions of the state lie together (inserted a state after another, by date):
  // about STATE_ROWS / 4 rows on a few dozen pages, of the thousands the table and the account hold.
  it.each(QUARTERS)('%s: the pages of its own transactions', async (_, query) => {
    const { pages, rows } = await returnReads(current, query)
    expect(rows).toBeGreaterThan(0)
    expect(pages).toBeLessThan(300)
  })

  it.each(QUARTERS)('%s: every transaction of the account without migration 7 (what it is for)', async (_, query) => {
    const before = await returnReads(released, query)
    const after = await returnReads(current, query)
    expect(before.rows).toBe(after.rows)
    expect(before.pages).toBeGreaterThan(10 * after.pages)
  })
})
