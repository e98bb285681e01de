// What both engines' transaction stores offer (DuckDB: transactions.ts, PostgreSQL:
// postgres/pg-transactions.ts), and what they share: the row a stored transaction is read back
// from, and how a batch of saves is decided against the rows already stored.
import type { ReturnQuery, ReturnRows } from './return-groups.ts'
import type { TransactionKey, TransactionKind, TransactionRecord, TransactionSource } from './transaction-record.ts'

export type StoredTransaction = TransactionRecord & { source: TransactionSource; createdAt: string; updatedAt: string }

/** `upsert`: create, or replace when different (v1). `create`: refuse a known key (TaxJar POST). `update`: refuse an unknown key (TaxJar PUT). */
export type SaveMode = 'upsert' | 'create' | 'update'
export type SaveResult = 'created' | 'updated' | 'unchanged' | 'exists' | 'missing'
export type Saved = { result: SaveResult; stored: StoredTransaction | null }

/** One group of the nexus aggregate: a state, a kind and the two flags that decide counting. */
export type StateGroup = { state: string; kind: TransactionKind; exemptionType: string | null; marketplace: boolean; total: bigint; count: number }

export type ListFilter = { kind: TransactionKind; provider: string; from?: string; to?: string; limit: number }

/** A bulk import (backfill): keys already stored are skipped, a key repeated in the import keeps its first row. */
export type BulkWriter = {
  /** rows stored so far (committed) */
  readonly inserted: number
  /** stages records, committing whenever a chunk's worth is staged */
  add(records: readonly TransactionRecord[]): Promise<void>
  /** commits what is staged; resolves once committed */
  commit(): Promise<void>
  /** discards what was not committed */
  close(): Promise<void>
}

export type TransactionStore = {
  get(accountId: string, key: TransactionKey): Promise<StoredTransaction | null>
  /** Writes one transaction per `mode`; resolves once committed, with what the store holds afterwards (null when refused as missing). */
  save(accountId: string, record: TransactionRecord, source: TransactionSource, now: number, mode: SaveMode): Promise<Saved>
  /** Removes one transaction; returns what was removed, or null when there was none. */
  remove(accountId: string, key: TransactionKey): Promise<StoredTransaction | null>
  /** Transaction ids of one kind and provider, oldest first, optionally within a date range (inclusive). */
  listIds(accountId: string, filter: ListFilter): Promise<string[]>
  bulkWriter(accountId: string, source: TransactionSource, now: number): Promise<BulkWriter>
  /** The nexus aggregate: per state, kind, exemption and marketplace flag, the amount total and count within [from, to] (UTC dates, inclusive). */
  stateGroups(accountId: string, from: string, to: string): Promise<StateGroup[]>
  /** What a sales-tax return reads of one state and period (return-groups.ts): the transactions grouped, and those read one by one. */
  returnRows(accountId: string, query: ReturnQuery): Promise<ReturnRows>
  /** rows this store will commit at once in a bulk import */
  readonly bulkCommitRows: number
}

/** One save waiting for its batch (group-commit.ts). */
export type SaveRequest = { accountId: string; record: TransactionRecord; source: TransactionSource; stamp: string; mode: SaveMode }

/** What a batch of saves writes: whole rows to insert and rows to overwrite, each the last state of its key. */
export type SavePlan = {
  results: Saved[]
  inserts: { accountId: string; stored: StoredTransaction }[]
  updates: { accountId: string; stored: StoredTransaction }[]
}

export const keyText = (accountId: string, key: TransactionKey) => `${accountId}\u0000${key.provider}\u0000${key.transactionId}\u0000${key.kind}`

/**
 * Decides each save of a batch in order against `existing` (the stored rows of the batch's keys,
 * by keyText): a later save of the same key sees what an earlier one of the batch did.
 */
export function planSaves(requests: readonly SaveRequest[], existing: Map<string, StoredTransaction>): SavePlan {
  const current = new Map(existing)
  const written = new Map<string, { accountId: string; stored: StoredTransaction; insert: boolean }>()
  const results = requests.map(({ accountId, record, source, stamp, mode }): Saved => {
    const key = keyText(accountId, record)
    const found = current.get(key) ?? null
    let stored: StoredTransaction
    if (!found) {
      if (mode === 'update') return { result: 'missing', stored: null }
      stored = { ...record, source, createdAt: stamp, updatedAt: stamp }
      written.set(key, { accountId, stored, insert: !existing.has(key) })
      current.set(key, stored)
      return { result: 'created', stored }
    }
    if (mode === 'create') return { result: 'exists', stored: found }
    if (sameRecord(found, record)) return { result: 'unchanged', stored: found }
    stored = { ...record, source: found.source, createdAt: found.createdAt, updatedAt: stamp }
    written.set(key, { accountId, stored, insert: written.get(key)?.insert ?? false })
    current.set(key, stored)
    return { result: 'updated', stored }
  })
  const plan: SavePlan = { results, inserts: [], updates: [] }
  for (const { accountId, stored, insert } of written.values()) (insert ? plan.inserts : plan.updates).push({ accountId, stored })
  return plan
}

/** The values of a record's columns after its key, in the order of VALUE_COLUMNS. */
export function recordValues(record: TransactionRecord): (string | number | boolean | null)[] {
  return [
    record.transactionDate, record.transactionAt, record.toCountry, record.toZip, record.toState, record.toCity, record.toStreet,
    record.fromCountry, record.fromZip, record.fromState, record.fromCity, record.fromStreet,
    record.amount, record.shipping, record.salesTax, record.customerId, record.exemptionType, record.marketplace,
    record.referenceId, record.lineItems ? JSON.stringify(record.lineItems) : null,
  ]
}

export const VALUE_COLUMNS = [
  'transaction_date', 'transaction_at', 'to_country', 'to_zip', 'to_state', 'to_city', 'to_street',
  'from_country', 'from_zip', 'from_state', 'from_city', 'from_street', 'amount', 'shipping', 'sales_tax',
  'customer_id', 'exemption_type', 'marketplace', 'transaction_reference_id', 'line_items',
] as const

/** A stored transaction from a row whose dates and instants are already ISO text (both engines select them so). */
export function storedOf(row: Record<string, unknown>): StoredTransaction {
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

/** A nexus group from a row of the aggregate query (both engines name its columns alike). */
export function stateGroupOf(row: Record<string, unknown>): StateGroup {
  return {
    state: String(row.to_state),
    kind: row.kind as TransactionKind,
    exemptionType: row.exemption_type === null ? null : String(row.exemption_type),
    marketplace: Boolean(row.marketplace),
    total: BigInt(String(row.total)),
    count: Number(row.n),
  }
}

const RECORD_FIELDS: (keyof TransactionRecord)[] = [
  'transactionAt', 'transactionDate', 'toCountry', 'toZip', 'toState', 'toCity', 'toStreet', 'fromCountry', 'fromZip',
  'fromState', 'fromCity', 'fromStreet', 'amount', 'shipping', 'salesTax', 'customerId', 'exemptionType', 'marketplace', 'referenceId',
]

function sameRecord(stored: TransactionRecord, record: TransactionRecord): boolean {
  return RECORD_FIELDS.every((field) => stored[field] === record[field]) && JSON.stringify(stored.lineItems) === JSON.stringify(record.lineItems)
}
