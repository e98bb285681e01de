// Orders and refunds of every account in the DuckDB store, in one table keyed by (account,
// provider, transaction id, kind). Money is BIGINT in units of 1/10,000 dollar
// (sale/money.ts), negative for refunds. Every method scopes its statements to one
// account. A call resolves only after its DuckDB transaction committed (the WAL is written and
// synced at commit), so anything acknowledged to a client survives a crash of the process. Saves
// are group-committed (group-commit.ts): those arriving while a commit runs share the next one.
//
// The key is kept by the writers, not by a PRIMARY KEY: DuckDB holds such an index in memory,
// growing with every stored row and never evicted. Every write goes through the store's one
// serialized connection; a batch of saves looks its keys up inside its own transaction, and a
// bulk commit anti-joins against the account's keys (transactions-bulk.ts).
import type { TransactionKey, TransactionRecord, TransactionSource } from './transaction-record.ts'
import { HttpError } from '../base/errors.ts'
import type { DuckDBValue } from '@duckdb/node-api'
import type { Database, Statements } from './database.ts'
import { AccountLocks } from './account-locks.ts'
import { GroupCommit } from './group-commit.ts'
import { BulkWriter, COMMIT_ROWS } from './transactions-bulk.ts'
import { itemizedOf, returnGroupOf, returnStatements, type ReturnQuery, type ReturnRows } from './return-groups.ts'
import {
  keyText,
  planSaves,
  recordValues,
  stateGroupOf,
  storedOf,
  VALUE_COLUMNS,
  type ListFilter,
  type SaveMode,
  type SaveRequest,
  type Saved,
  type StateGroup,
  type StoredTransaction,
  type TransactionStore,
} from './transaction-store.ts'

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS transactions (
     account_id VARCHAR NOT NULL, provider VARCHAR NOT NULL, transaction_id VARCHAR NOT NULL,
     kind VARCHAR NOT NULL CHECK (kind IN ('order', 'refund')),
     transaction_date DATE NOT NULL, transaction_at TIMESTAMP NOT NULL,
     to_country VARCHAR NOT NULL, to_zip VARCHAR NOT NULL, to_state VARCHAR NOT NULL, to_city VARCHAR, to_street VARCHAR,
     from_country VARCHAR, from_zip VARCHAR, from_state VARCHAR, from_city VARCHAR, from_street VARCHAR,
     amount BIGINT NOT NULL, shipping BIGINT NOT NULL, sales_tax BIGINT NOT NULL,
     customer_id VARCHAR, exemption_type VARCHAR, marketplace BOOLEAN NOT NULL,
     transaction_reference_id VARCHAR, line_items VARCHAR,
     source VARCHAR NOT NULL, created_at TIMESTAMP NOT NULL, updated_at TIMESTAMP NOT NULL)`,
]

/** Most saves committed in one DuckDB transaction. */
const MAX_BATCH = 256

// A batch's keys and new rows go through the appender into these (TEMP: memory, never logged),
// then one join reads the stored rows and one INSERT … SELECT writes the new ones: statements
// with a parameter per value cost DuckDB far more to plan than the rows cost to write.
const STAGES = [
  'CREATE TEMP TABLE IF NOT EXISTS save_keys (account_id VARCHAR, provider VARCHAR, transaction_id VARCHAR, kind VARCHAR)',
  `CREATE TEMP TABLE IF NOT EXISTS save_rows (
     account_id VARCHAR, provider VARCHAR, transaction_id VARCHAR, kind VARCHAR, transaction_date VARCHAR, transaction_at VARCHAR,
     to_country VARCHAR, to_zip VARCHAR, to_state VARCHAR, to_city VARCHAR, to_street VARCHAR,
     from_country VARCHAR, from_zip VARCHAR, from_state VARCHAR, from_city VARCHAR, from_street VARCHAR,
     amount BIGINT, shipping BIGINT, sales_tax BIGINT, customer_id VARCHAR, exemption_type VARCHAR, marketplace BOOLEAN,
     transaction_reference_id VARCHAR, line_items VARCHAR, source VARCHAR, created_at VARCHAR, updated_at VARCHAR)`,
]

const COLUMNS = `provider, transaction_id, kind, transaction_date::VARCHAR AS transaction_date,
  strftime(transaction_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS transaction_at,
  to_country, to_zip, to_state, to_city, to_street, from_country, from_zip, from_state, from_city, from_street,
  amount, shipping, sales_tax, customer_id, exemption_type, marketplace, transaction_reference_id, line_items, source,
  strftime(created_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS created_at, strftime(updated_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS updated_at`

const KEY_WHERE = 'account_id = ? AND provider = ? AND transaction_id = ? AND kind = ?'

export class DuckDBTransactionStore implements TransactionStore {
  readonly bulkCommitRows = COMMIT_ROWS
  readonly #saves: GroupCommit<SaveRequest, Saved>
  readonly #locks = new AccountLocks()

  private constructor(private readonly db: Database) {
    // One connection: one batch at a time, the next gathering while it commits.
    const commit = (batch: SaveRequest[]) => this.#locks.run(batch.map((save) => save.accountId), () => db.transaction((tx) => saveBatch(tx, batch)))
    this.#saves = new GroupCommit(commit, {
      concurrency: 1,
      maxBatch: MAX_BATCH,
      // A refused disk (StoreWriteError) fails the whole batch; anything else is tried write by write.
      storeFailure: (error) => error instanceof HttpError,
    })
  }

  /** The store over `db`, creating its table if it is missing. */
  static async of(db: Database): Promise<DuckDBTransactionStore> {
    for (const statement of SCHEMA) await db.run(statement)
    await db.setUpSession(STAGES)
    return new DuckDBTransactionStore(db)
  }

  async get(accountId: string, key: TransactionKey): Promise<StoredTransaction | null> {
    const rows = await this.db.rows(`SELECT ${COLUMNS} FROM transactions WHERE ${KEY_WHERE}`, [accountId, key.provider, key.transactionId, key.kind])
    return rows.length ? storedOf(rows[0]) : null
  }

  /** Writes one transaction per `mode`, in the next group commit; `stored` is what the store holds afterwards (null when refused as missing). */
  save(accountId: string, record: TransactionRecord, source: TransactionSource, now: number, mode: SaveMode): Promise<Saved> {
    return this.#saves.submit({ accountId, record, source, stamp: new Date(now).toISOString(), mode })
  }

  /** Removes one transaction; returns what was removed, or null when there was none. */
  remove(accountId: string, key: TransactionKey): Promise<StoredTransaction | null> {
    return this.db.transaction(async (tx) => {
      const params = [accountId, key.provider, key.transactionId, key.kind]
      const rows = await tx.rows(`SELECT ${COLUMNS} FROM transactions WHERE ${KEY_WHERE}`, params)
      if (!rows.length) return null
      await tx.run(`DELETE FROM transactions WHERE ${KEY_WHERE}`, params)
      return storedOf(rows[0])
    })
  }

  /** Transaction ids of one kind and provider, oldest first, optionally within a date range (inclusive). */
  async listIds(accountId: string, filter: ListFilter): Promise<string[]> {
    const params: (string | number)[] = [accountId, filter.kind, filter.provider]
    let where = 'account_id = ? AND kind = ? AND provider = ?'
    if (filter.from) {
      where += ' AND transaction_date >= ?::DATE'
      params.push(filter.from)
    }
    if (filter.to) {
      where += ' AND transaction_date <= ?::DATE'
      params.push(filter.to)
    }
    params.push(filter.limit)
    const rows = await this.db.rows(`SELECT transaction_id FROM transactions WHERE ${where} ORDER BY transaction_date, transaction_id LIMIT ?`, params)
    return rows.map((row) => String(row.transaction_id))
  }

  /** A writer for a bulk import into this store (backfill). */
  bulkWriter(accountId: string, source: TransactionSource, now: number): Promise<BulkWriter> {
    return BulkWriter.open(this.db, accountId, source, now, this.#locks)
  }

  /** The nexus aggregate: per state, kind, exemption and marketplace flag, the amount total and count within [from, to] (UTC dates, inclusive). */
  async stateGroups(accountId: string, from: string, to: string): Promise<StateGroup[]> {
    const rows = await this.db.rows(
      `SELECT to_state, kind, exemption_type, marketplace, sum(amount)::VARCHAR AS total, count(*)::INTEGER AS n
       FROM transactions
       WHERE account_id = ? AND transaction_date BETWEEN ?::DATE AND ?::DATE
       GROUP BY ALL`,
      [accountId, from, to],
    )
    return rows.map(stateGroupOf)
  }

  /** Read on a connection of its own, so saves are not held up while a return is summed. */
  async returnRows(accountId: string, query: ReturnQuery): Promise<ReturnRows> {
    const { groups, itemized } = returnStatements(accountId, query, () => '?')
    const reader = await this.db.connectAgain()
    try {
      const grouped = await reader.rows(groups.sql, groups.params as DuckDBValue[])
      const single = await reader.rows(itemized.sql, itemized.params as DuckDBValue[])
      return { groups: grouped.map(returnGroupOf), itemized: single.map(itemizedOf) }
    } finally {
      await reader.close()
    }
  }
}

const KEY_JOIN = 'k.account_id = t.account_id AND k.provider = t.provider AND k.transaction_id = t.transaction_id AND k.kind = t.kind'

/** Decides a batch of saves against the rows stored under their keys, and writes what it decided, in the caller's transaction. */
async function saveBatch(tx: Statements, batch: SaveRequest[]): Promise<Saved[]> {
  await tx.append('save_keys', batch.map(({ accountId, record }) => [accountId, record.provider, record.transactionId, record.kind]), { temp: true })
  // The accounts named outright, so DuckDB skips other accounts' row groups (a backfill's million
  // rows) by their zone maps instead of scanning them for the join.
  const accounts = [...new Set(batch.map((save) => save.accountId))]
  const rows = await tx.rows(
    `SELECT account_id, ${COLUMNS} FROM transactions AS t SEMI JOIN save_keys AS k ON ${KEY_JOIN} WHERE t.account_id IN (${accounts.map(() => '?').join(', ')})`,
    accounts,
  )
  await tx.run('DELETE FROM save_keys')
  const existing = new Map<string, StoredTransaction>()
  for (const row of rows) {
    const stored = storedOf(row)
    existing.set(keyText(String(row.account_id), stored), stored)
  }
  const plan = planSaves(batch, existing)
  if (plan.inserts.length) await insertMany(tx, plan.inserts)
  for (const { accountId, stored } of plan.updates) await updateOne(tx, accountId, stored, stored.updatedAt)
  return plan.results
}

async function insertMany(tx: Statements, rows: { accountId: string; stored: StoredTransaction }[]): Promise<void> {
  await tx.append(
    'save_rows',
    rows.map(({ accountId, stored: r }) => [
      accountId, r.provider, r.transactionId, r.kind, r.transactionDate, r.transactionAt, r.toCountry, r.toZip, r.toState, r.toCity, r.toStreet,
      r.fromCountry, r.fromZip, r.fromState, r.fromCity, r.fromStreet, BigInt(r.amount), BigInt(r.shipping), BigInt(r.salesTax),
      r.customerId, r.exemptionType, r.marketplace, r.referenceId, r.lineItems ? JSON.stringify(r.lineItems) : null, r.source, r.createdAt, r.updatedAt,
    ]),
    { temp: true },
  )
  await tx.run(`INSERT INTO transactions
    SELECT account_id, provider, transaction_id, kind, transaction_date::DATE, transaction_at::TIMESTAMP, to_country, to_zip, to_state, to_city, to_street,
      from_country, from_zip, from_state, from_city, from_street, amount, shipping, sales_tax, customer_id, exemption_type, marketplace,
      transaction_reference_id, line_items, source, created_at::TIMESTAMP, updated_at::TIMESTAMP
    FROM save_rows`)
  await tx.run('DELETE FROM save_rows')
}

const VALUE_ASSIGNMENTS = VALUE_COLUMNS.map((column) => `${column} = ?${column === 'transaction_date' ? '::DATE' : column === 'transaction_at' ? '::TIMESTAMP' : ''}`).join(', ')

function updateOne(tx: Statements, accountId: string, record: TransactionRecord, stamp: string) {
  return tx.run(`UPDATE transactions SET ${VALUE_ASSIGNMENTS}, updated_at = ?::TIMESTAMP WHERE ${KEY_WHERE}`, [
    ...recordValues(record),
    stamp,
    accountId,
    record.provider,
    record.transactionId,
    record.kind,
  ])
}
