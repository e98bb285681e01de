// Orders and refunds in PostgreSQL, keyed by the primary key (account, kind, provider, transaction
// id): whichever node a write arrives at, the database holds one row per key. Saves are
// group-committed (group-commit.ts), a few batches at once on their own connections: a batch
// locks the rows of its keys (in key order, so two batches never deadlock), decides every save
// against them (transaction-store.ts: planSaves), inserts the new rows and overwrites the changed
// ones. A key another node inserted between the read and the insert makes the insert skip it;
// the batch then runs again from the read, where it finds that row. Nexus health reads the daily
// totals the database keeps beside the rows (pg-migrations.ts: transaction_totals).
import { HttpError } from '../../base/errors.ts'
import type { TransactionKey, TransactionRecord, TransactionSource } from '../transaction-record.ts'
import { GroupCommit } from '../group-commit.ts'
import {
  keyText,
  planSaves,
  recordValues,
  stateGroupOf,
  storedOf,
  VALUE_COLUMNS,
  type BulkWriter,
  type ListFilter,
  type SaveMode,
  type SaveRequest,
  type Saved,
  type StateGroup,
  type StoredTransaction,
  type TransactionStore,
} from '../transaction-store.ts'
import { PgBulkWriter } from './pg-bulk-writer.ts'
import { itemizedOf, returnGroupOf, returnStatements, type ReturnQuery, type ReturnRows } from '../return-groups.ts'
import { PG_COMMIT_ROWS } from './pg-commit-rows.ts'
import type { PgDatabase, PgStatements } from './pg-database.ts'

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`

export const PG_COLUMNS = `provider, transaction_id, kind, transaction_date::text AS transaction_date,
  to_char(transaction_at, ${ISO}) AS transaction_at,
  to_country, to_zip, to_state, to_city, to_street, from_country, from_zip, from_state, from_city, from_street,
  amount, shipping, sales_tax, customer_id, exemption_type, marketplace, transaction_reference_id, line_items, source,
  to_char(created_at, ${ISO}) AS created_at, to_char(updated_at, ${ISO}) AS updated_at`

// The planner guesses a return's groups (place, segment, exemption) from each column's own number
// of values, many times more than there are; with the default 4 MB it sorts every row, spilling to
// disk, to group them. With this much it sums them in a hash table, which holds the real few.
const GROUPS_WORK_MEM = `SET LOCAL work_mem = '32MB'`

const KEY_WHERE = 'account_id = $1 AND provider = $2 AND transaction_id = $3 AND kind = $4'

/** Batches committing at once, each on its own connection. */
const CONCURRENT_BATCHES = 4
const MAX_BATCH = 256

/** Thrown inside a batch when another node inserted one of its keys first: the batch runs again. */
class KeyTakenError extends Error {
  readonly code = '40001'
}

export class PgTransactionStore implements TransactionStore {
  readonly bulkCommitRows = PG_COMMIT_ROWS
  readonly #saves: GroupCommit<SaveRequest, Saved>

  constructor(private readonly db: PgDatabase) {
    this.#saves = new GroupCommit((batch) => db.transaction((tx) => saveBatch(tx, batch)), {
      concurrency: CONCURRENT_BATCHES,
      maxBatch: MAX_BATCH,
      storeFailure: (error) => error instanceof HttpError,
    })
  }

  async get(accountId: string, key: TransactionKey): Promise<StoredTransaction | null> {
    const rows = await this.db.rows(`SELECT ${PG_COLUMNS} FROM transactions WHERE ${KEY_WHERE}`, [accountId, key.provider, key.transactionId, key.kind])
    return rows.length ? storedOf(rows[0]) : null
  }

  save(accountId: string, record: TransactionRecord, source: TransactionSource, now: number, mode: SaveMode): Promise<Saved> {
    return this.#saves.submit({ accountId, record, source, stamp: new Date(now).toISOString(), mode })
  }

  async remove(accountId: string, key: TransactionKey): Promise<StoredTransaction | null> {
    const rows = await this.db.rows(`DELETE FROM transactions WHERE ${KEY_WHERE} RETURNING ${PG_COLUMNS}`, [accountId, key.provider, key.transactionId, key.kind])
    return rows.length ? storedOf(rows[0]) : null
  }

  async listIds(accountId: string, filter: ListFilter): Promise<string[]> {
    const rows = await this.db.rows(
      `SELECT transaction_id FROM transactions
       WHERE account_id = $1 AND kind = $2 AND provider = $3
         AND ($4::date IS NULL OR transaction_date >= $4::date) AND ($5::date IS NULL OR transaction_date <= $5::date)
       ORDER BY transaction_date, transaction_id LIMIT $6`,
      [accountId, filter.kind, filter.provider, filter.from ?? null, filter.to ?? null, filter.limit],
    )
    return rows.map((row) => String(row.transaction_id))
  }

  async bulkWriter(accountId: string, source: TransactionSource, now: number): Promise<BulkWriter> {
    return new PgBulkWriter(this.db, accountId, source, now)
  }

  async stateGroups(accountId: string, from: string, to: string): Promise<StateGroup[]> {
    const rows = await this.db.rows(
      `SELECT to_state, kind, nullif(exemption, '') AS exemption_type, marketplace, sum(total)::text AS total, sum(n)::integer AS n
       FROM transaction_totals
       WHERE account_id = $1 AND transaction_date BETWEEN $2::date AND $3::date
       GROUP BY to_state, kind, exemption, marketplace
       HAVING sum(n) > 0`,
      [accountId, from, to],
    )
    return rows.map(stateGroupOf)
  }

  async returnRows(accountId: string, query: ReturnQuery): Promise<ReturnRows> {
    const { groups, itemized } = returnStatements(accountId, query, (i) => `$${i}`)
    const summed = this.db.transaction(async (tx) => {
      await tx.run(GROUPS_WORK_MEM)
      return tx.rows(groups.sql, groups.params)
    })
    const [grouped, single] = await Promise.all([summed, this.db.rows(itemized.sql, itemized.params)])
    return { groups: grouped.map(returnGroupOf), itemized: single.map(itemizedOf) }
  }
}

/** The stored rows of a batch's keys ($1..$4: arrays of account, provider, id, kind), locked in key order. */
export const ROWS_OF_KEYS = `SELECT account_id, ${PG_COLUMNS} FROM transactions
  WHERE (account_id, provider, transaction_id, kind) IN (SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]))
  ORDER BY account_id, kind, provider, transaction_id
  FOR UPDATE`

async function saveBatch(tx: PgStatements, batch: SaveRequest[]): Promise<Saved[]> {
  const keys = batch.map(({ accountId, record }) => [accountId, record.provider, record.transactionId, record.kind])
  const rows = await tx.rows(ROWS_OF_KEYS, [0, 1, 2, 3].map((i) => keys.map((key) => key[i])))
  const existing = new Map<string, StoredTransaction>()
  for (const row of rows) {
    const stored = storedOf(row)
    existing.set(keyText(String(row.account_id), stored), stored)
  }
  const plan = planSaves(batch, existing)
  if (plan.inserts.length) {
    const inserted = await insertMany(tx, plan.inserts)
    if (inserted < plan.inserts.length) throw new KeyTakenError('another node inserted a key of this batch first')
  }
  for (const { accountId, stored } of plan.updates) await updateOne(tx, accountId, stored)
  return plan.results
}

// Column types of the arrays a batch is inserted from, after the key.
const VALUE_TYPES: Record<(typeof VALUE_COLUMNS)[number], string> = {
  transaction_date: 'date', transaction_at: 'timestamp', to_country: 'text', to_zip: 'text', to_state: 'text', to_city: 'text', to_street: 'text',
  from_country: 'text', from_zip: 'text', from_state: 'text', from_city: 'text', from_street: 'text', amount: 'bigint', shipping: 'bigint', sales_tax: 'bigint',
  customer_id: 'text', exemption_type: 'text', marketplace: 'boolean', transaction_reference_id: 'text', line_items: 'text',
}
const INSERT_COLUMNS = ['account_id', 'provider', 'transaction_id', 'kind', ...VALUE_COLUMNS, 'source', 'created_at', 'updated_at']
const INSERT_TYPES = ['text', 'text', 'text', 'text', ...VALUE_COLUMNS.map((c) => VALUE_TYPES[c]), 'text', 'timestamp', 'timestamp']

/** Inserts whole rows from one array per column; returns how many were inserted (a key already stored is skipped). */
async function insertMany(tx: PgStatements, rows: { accountId: string; stored: StoredTransaction }[]): Promise<number> {
  const values = rows.map(({ accountId, stored }) => [accountId, stored.provider, stored.transactionId, stored.kind, ...recordValues(stored), stored.source, stored.createdAt, stored.updatedAt])
  return tx.run(
    `INSERT INTO transactions (${INSERT_COLUMNS.join(', ')})
     SELECT * FROM unnest(${INSERT_TYPES.map((type, i) => `$${i + 1}::${type}[]`).join(', ')})
     ON CONFLICT DO NOTHING`,
    INSERT_TYPES.map((_, i) => values.map((row) => row[i])),
  )
}

const VALUE_ASSIGNMENTS = VALUE_COLUMNS.map((column, i) => `${column} = $${i + 1}::${VALUE_TYPES[column]}`).join(', ')

function updateOne(tx: PgStatements, accountId: string, stored: StoredTransaction) {
  const n = VALUE_COLUMNS.length
  return tx.run(
    `UPDATE transactions SET ${VALUE_ASSIGNMENTS}, updated_at = $${n + 1}::timestamp
     WHERE account_id = $${n + 2} AND provider = $${n + 3} AND transaction_id = $${n + 4} AND kind = $${n + 5}`,
    [...recordValues(stored), stored.updatedAt, accountId, stored.provider, stored.transactionId, stored.kind],
  )
}
