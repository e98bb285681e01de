// Group commits on both engines, on a real DuckDB file and a real PostgreSQL database: concurrent
// saves share a few transactions instead of one each, every save resolves only once its row is
// committed (a separate connection reads it at that moment), and a save the database refuses fails
// alone while the rest of its batch is stored.
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { Database } from '../server/store/database.ts'
import { PgDatabase } from '../server/store/postgres/pg-database.ts'
import { migrate } from '../server/store/postgres/pg-migrations.ts'
import { PgTransactionStore } from '../server/store/postgres/pg-transactions.ts'
import type { TransactionRecord } from '../server/store/transaction-record.ts'
import type { TransactionStore } from '../server/store/transaction-store.ts'
import { DuckDBTransactionStore } from '../server/store/transactions.ts'
import { createTestDatabase } from './support/postgres-server.ts'

const record = (i: number, kind = 'order'): TransactionRecord => ({
  provider: 'api', transactionId: `gc-${i}`, kind: kind as TransactionRecord['kind'], transactionAt: '2026-05-14T00:00:00.000Z', transactionDate: '2026-05-14',
  toCountry: 'US', toZip: '30303', toState: 'GA', toCity: null, toStreet: null, fromCountry: null, fromZip: null, fromState: null, fromCity: null, fromStreet: null,
  amount: 10_000 + i, shipping: 0, salesTax: 0, customerId: null, exemptionType: null, marketplace: false, referenceId: null, lineItems: null,
})

type Engine = {
  store: TransactionStore
  /** transactions committed so far (each batch is one) */
  commits: () => number
  /** whether another connection sees the row now */
  committed: (transactionId: string) => Promise<boolean>
  close: () => Promise<void>
}

const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup()
})

async function duckdb(): Promise<Engine> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'taxatlas-group-commit-'))
  const db = await Database.open(path.join(dir, 'store.duckdb'))
  let commits = 0
  const transaction = db.transaction.bind(db)
  db.transaction = (work) => transaction(work).then((result) => (commits++, result))
  const store = await DuckDBTransactionStore.of(db)
  // A second connection to the same file reads only what was committed.
  const reader = await db.connectAgain()
  cleanups.push(() => rm(dir, { recursive: true, force: true }))
  return {
    store,
    commits: () => commits,
    committed: async (id) => (await reader.rows('SELECT 1 FROM transactions WHERE transaction_id = ?', [id])).length === 1,
    close: async () => {
      await reader.close()
      await db.close()
    },
  }
}

async function postgres(): Promise<Engine> {
  const url = await createTestDatabase(inject('postgresUrl'), 'group_commit')
  const db = PgDatabase.connect(url, { size: 6, name: 'group commit test' })
  await migrate(db)
  let commits = 0
  const transaction = db.transaction.bind(db)
  db.transaction = (work) => transaction(work).then((result) => (commits++, result))
  const reader = new pg.Client({ connectionString: url })
  await reader.connect()
  return {
    store: new PgTransactionStore(db),
    commits: () => commits,
    committed: async (id) => (await reader.query('SELECT 1 FROM transactions WHERE transaction_id = $1', [id])).rowCount === 1,
    close: async () => {
      await reader.end()
      await db.close()
    },
  }
}

describe.each([
  ['DuckDB', duckdb],
  ['PostgreSQL', postgres],
])('group commits on %s', (_, open) => {
  it('commit concurrent saves together, each answered only once its row is committed', async () => {
    const engine = await open()
    try {
      const seenAtAnswer = await Promise.all(
        Array.from({ length: 200 }, async (_, i) => {
          const saved = await engine.store.save('acct_gc', record(i), 'api', Date.parse('2026-11-21T00:00:00Z'), 'upsert')
          expect(saved.result).toBe('created')
          return engine.committed(`gc-${i}`)
        }),
      )
      expect(seenAtAnswer.every(Boolean)).toBe(true)
      // 200 saves at once: a handful of batches, not 200 transactions.
      expect(engine.commits()).toBeLessThanOrEqual(20)
      const groups = await engine.store.stateGroups('acct_gc', '2026-01-01', '2026-12-31')
      expect(groups).toEqual([{ state: 'GA', kind: 'order', exemptionType: null, marketplace: false, total: BigInt(200 * 10_000 + (199 * 200) / 2), count: 200 }])
    } finally {
      await engine.close()
    }
  })

  it('fail a save the database refuses on its own, storing the rest of its batch', async () => {
    const engine = await open()
    try {
      // `kind` is checked by the table (CHECK constraint): this one cannot be stored.
      const results = await Promise.allSettled(
        Array.from({ length: 30 }, (_, i) => engine.store.save('acct_gc', record(1_000 + i, i === 7 ? 'bogus' : 'order'), 'api', Date.parse('2026-11-21T00:00:00Z'), 'upsert')),
      )
      expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1)
      expect(results[7].status).toBe('rejected')
      for (let i = 0; i < 30; i++) expect(await engine.committed(`gc-${1_000 + i}`)).toBe(i !== 7)
    } finally {
      await engine.close()
    }
  })
})
