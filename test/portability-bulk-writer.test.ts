// The backfill's bulk writer on a real DuckDB file: it commits exactly one row group (122,880
// rows) at a time whatever size the batches it is handed, so every commit is written straight
// to the data file as full row groups, and the rest goes in at the end.
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TransactionRecord } from '../server/store/transaction-record.ts'
import { Database } from '../server/store/database.ts'
import { DuckDBTransactionStore } from '../server/store/transactions.ts'
import { COMMIT_ROWS } from '../server/store/transactions-bulk.ts'

let dir: string
let db: Database

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'taxatlas-bulk-'))
  db = await Database.open(path.join(dir, 'store.duckdb'))
})
afterAll(async () => {
  await db?.close()
  await rm(dir, { recursive: true, force: true })
})

const record = (i: number): TransactionRecord => ({
  provider: 'api', transactionId: `bulk-${i}`, kind: 'order', transactionAt: '2026-05-14T00:00:00.000Z', transactionDate: '2026-05-14',
  toCountry: 'US', toZip: '30303', toState: 'GA', toCity: null, toStreet: null, fromCountry: null, fromZip: null, fromState: null, fromCity: null, fromStreet: null,
  amount: 10_000, shipping: 0, salesTax: 0, customerId: null, exemptionType: null, marketplace: false, referenceId: null, lineItems: null,
})

/** Rows per DuckDB row group of `transactions`, in order. */
const rowGroups = async () =>
  (await db.rows("SELECT row_group_id, sum(count) AS rows FROM pragma_storage_info('transactions') WHERE column_id = 0 AND segment_type <> 'VALIDITY' GROUP BY row_group_id ORDER BY row_group_id")).map((r) => Number(r.rows))

describe('bulk writer', () => {
  it('commits exactly one row group at a time from batches of another size, then the rest at the end', async () => {
    const store = await DuckDBTransactionStore.of(db)
    const writer = await store.bulkWriter('acct_bulk', 'backfill', Date.parse('2026-11-21T00:00:00Z'))
    const batch = 10_000
    const total = 2 * COMMIT_ROWS + 5_000
    const committed: number[] = []
    for (let at = 0; at < total; at += batch) {
      await writer.add(Array.from({ length: Math.min(batch, total - at) }, (_, i) => record(at + i)))
      committed.push(writer.inserted)
    }
    // 13 batches of 10,000 pass the first row group: the commit holds 122,880 rows, not 130,000.
    expect(committed[12]).toBe(COMMIT_ROWS)
    expect(new Set(committed)).toEqual(new Set([0, COMMIT_ROWS, 2 * COMMIT_ROWS]))
    await writer.commit()
    await writer.close()
    expect(writer.inserted).toBe(total)
    await db.run('CHECKPOINT')
    expect(await rowGroups()).toEqual([COMMIT_ROWS, COMMIT_ROWS, 5_000])
  })
})
