// Orders and refunds of every account, in one DuckDB table keyed by (account, provider,
// transaction id, kind). Money is BIGINT in units of 1/10,000 dollar (portability/money.ts),
// negative for refunds. Every method scopes its statements to one account. A call resolves only
// after its DuckDB transaction committed (the WAL is written and synced at commit), so anything
// acknowledged to a client survives a crash of the process.
//
// The key is kept by the writers, not by a PRIMARY KEY: DuckDB holds such an index in memory,
// growing with every stored row and never evicted. Every write goes through the store's one
// serialized connection; a single save looks its key up inside its own transaction, and a bulk
// commit anti-joins against the account's keys (transactions-bulk.ts).
import type { TransactionKey, TransactionKind, TransactionRecord, TransactionSource } from './transaction-record.ts'
import type { Database, Row, Statements } from './database.ts'
import { BulkWriter } from './transactions-bulk.ts'

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

export type StoredTransaction = TransactionRecord & { source: TransactionSource; createdAt: string; updatedAt: string }

/** `upsert`: create, or replace when different (v1). `create`: refuse a known key (TaxJar POST). `update`: refuse an unknown key (TaxJar PUT). */
export type SaveMode = 'upsert' | 'create' | 'update'
export type SaveResult = 'created' | 'updated' | 'unchanged' | 'exists' | 'missing'

/** One group of the nexus aggregate: a state, a kind and the two flags that decide counting. */
export type StateGroup = { state: string; kind: TransactionKind; exemptionType: string | null; marketplace: boolean; total: bigint; count: number }

export type ListFilter = { kind: TransactionKind; provider: string; from?: string; to?: string; limit: number }

const COLUMNS = `provider, transaction_id, kind, transaction_date::VARCHAR AS transaction_date,
  strftime(transaction_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS transaction_at,
  to_country, to_zip, to_state, to_city, to_street, from_country, from_zip, from_state, from_city, from_street,
  amount, shipping, sales_tax, customer_id, exemption_type, marketplace, transaction_reference_id, line_items, source,
  strftime(created_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS created_at, strftime(updated_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS updated_at`

const KEY_WHERE = 'account_id = ? AND provider = ? AND transaction_id = ? AND kind = ?'

export class TransactionStore {
  private constructor(private readonly db: Database) {}

  /** The store over `db`, creating its table if it is missing. */
  static async of(db: Database): Promise<TransactionStore> {
    for (const statement of SCHEMA) await db.run(statement)
    return new TransactionStore(db)
  }

  async get(accountId: string, key: TransactionKey): Promise<StoredTransaction | null> {
    const rows = await this.db.rows(`SELECT ${COLUMNS} FROM transactions WHERE ${KEY_WHERE}`, [accountId, key.provider, key.transactionId, key.kind])
    return rows.length ? storedOf(rows[0]) : null
  }

  /** Writes one transaction per `mode`; `stored` is what the store holds afterwards (null when refused as missing). */
  save(accountId: string, record: TransactionRecord, source: TransactionSource, now: number, mode: SaveMode): Promise<{ result: SaveResult; stored: StoredTransaction | null }> {
    const stamp = new Date(now).toISOString()
    return this.db.transaction(async (tx) => {
      const rows = await tx.rows(`SELECT ${COLUMNS} FROM transactions WHERE ${KEY_WHERE}`, [accountId, record.provider, record.transactionId, record.kind])
      const existing = rows.length ? storedOf(rows[0]) : null
      if (!existing) {
        if (mode === 'update') return { result: 'missing', stored: null }
        await insertOne(tx, accountId, record, source, stamp)
        return { result: 'created', stored: { ...record, source, createdAt: stamp, updatedAt: stamp } }
      }
      if (mode === 'create') return { result: 'exists', stored: existing }
      if (sameRecord(existing, record)) return { result: 'unchanged', stored: existing }
      await updateOne(tx, accountId, record, stamp)
      return { result: 'updated', stored: { ...record, source: existing.source, createdAt: existing.createdAt, updatedAt: stamp } }
    })
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
    return BulkWriter.open(this.db, accountId, source, now)
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
    return rows.map((row) => ({
      state: String(row.to_state),
      kind: row.kind as TransactionKind,
      exemptionType: row.exemption_type === null ? null : String(row.exemption_type),
      marketplace: Boolean(row.marketplace),
      total: BigInt(String(row.total)),
      count: Number(row.n),
    }))
  }
}

function recordValues(record: TransactionRecord): (string | number | boolean | null)[] {
  return [
    record.transactionDate, record.transactionAt, record.toCountry, record.toZip, record.toState, record.toCity, record.toStreet,
    record.fromCountry, record.fromZip, record.fromState, record.fromCity, record.fromStreet,
    record.amount, record.shipping, record.salesTax, record.customerId, record.exemptionType, record.marketplace,
    record.referenceId, record.lineItems ? JSON.stringify(record.lineItems) : null,
  ]
}

const VALUE_COLUMNS = `transaction_date, transaction_at, to_country, to_zip, to_state, to_city, to_street,
  from_country, from_zip, from_state, from_city, from_street, amount, shipping, sales_tax,
  customer_id, exemption_type, marketplace, transaction_reference_id, line_items`

function insertOne(tx: Statements, accountId: string, record: TransactionRecord, source: TransactionSource, stamp: string) {
  return tx.run(
    `INSERT INTO transactions (account_id, provider, transaction_id, kind, ${VALUE_COLUMNS}, source, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?::DATE, ?::TIMESTAMP, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::TIMESTAMP, ?::TIMESTAMP)`,
    [accountId, record.provider, record.transactionId, record.kind, ...recordValues(record), source, stamp, stamp],
  )
}

const VALUE_ASSIGNMENTS = VALUE_COLUMNS.split(',')
  .map((column) => column.trim())
  .map((column) => `${column} = ?${column === 'transaction_date' ? '::DATE' : column === 'transaction_at' ? '::TIMESTAMP' : ''}`)
  .join(', ')

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

function storedOf(row: Row): StoredTransaction {
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value))
  return {
    provider: String(row.provider),
    transactionId: String(row.transaction_id),
    kind: row.kind as TransactionKind,
    transactionAt: String(row.transaction_at),
    transactionDate: String(row.transaction_date),
    toCountry: String(row.to_country),
    toZip: String(row.to_zip),
    toState: String(row.to_state),
    toCity: text(row.to_city),
    toStreet: text(row.to_street),
    fromCountry: text(row.from_country),
    fromZip: text(row.from_zip),
    fromState: text(row.from_state),
    fromCity: text(row.from_city),
    fromStreet: text(row.from_street),
    amount: Number(row.amount),
    shipping: Number(row.shipping),
    salesTax: Number(row.sales_tax),
    customerId: text(row.customer_id),
    exemptionType: text(row.exemption_type) as StoredTransaction['exemptionType'],
    marketplace: Boolean(row.marketplace),
    referenceId: text(row.transaction_reference_id),
    lineItems: row.line_items === null ? null : JSON.parse(String(row.line_items)),
    source: row.source as TransactionSource,
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
  }
}

const RECORD_FIELDS: (keyof TransactionRecord)[] = [
  'transactionAt', 'transactionDate', 'toCountry', 'toZip', 'toState', 'toCity', 'toStreet', 'fromCountry', 'fromZip',
  'fromState', 'fromCity', 'fromStreet', 'amount', 'shipping', 'salesTax', 'customerId', 'exemptionType', 'marketplace', 'referenceId',
]

function sameRecord(stored: TransactionRecord, record: TransactionRecord): boolean {
  return RECORD_FIELDS.every((field) => stored[field] === record[field]) && JSON.stringify(stored.lineItems) === JSON.stringify(record.lineItems)
}
