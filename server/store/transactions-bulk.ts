// Bulk writes into `transactions` (a backfill): rows are appended through DuckDB's appender to a
// staging table of this import, and every COMMIT_ROWS staged rows are copied into `transactions`
// by one INSERT … ANTI JOIN in one transaction — keys the account already holds are skipped, which
// is what makes a re-run add nothing. A commit of at least a DuckDB row group (122,880 rows) is
// written straight to the data file instead of through the write-ahead log, several times
// cheaper than many small commits; committing exactly one row group (not whatever the batches
// add up to past it) also leaves no partly filled row group behind each commit. The staging
// table is a TEMP table (memory, never logged): what is staged but not yet committed is simply
// gone if the process dies, and was never acknowledged. The import runs on a connection of its
// own, so orders keep being committed beside it; its commits hold the account's lock
// (account-locks.ts), which saves of the same account wait for.
import type { TransactionRecord, TransactionSource } from './transaction-record.ts'
import type { AccountLocks } from './account-locks.ts'
import type { AppendValue, Database } from './database.ts'

/** One DuckDB row group. */
export const COMMIT_ROWS = 122_880

let stages = 0

export class BulkWriter {
  /** keys staged since the last commit: a key repeated in the import keeps its first row */
  #staged = new Set<string>()
  #inserted = 0

  private constructor(
    private readonly db: Database,
    private readonly stage: string,
    private readonly accountId: string,
    private readonly source: TransactionSource,
    private readonly stamp: string,
    private readonly locks: AccountLocks,
  ) {}

  /** A writer on a new connection to `store`'s file (closed by `close`). */
  static async open(store: Database, accountId: string, source: TransactionSource, now: number, locks: AccountLocks): Promise<BulkWriter> {
    const stage = `transactions_stage_${++stages}`
    const db = await store.connectAgain()
    await db.run(`CREATE TEMP TABLE ${stage} (
      provider VARCHAR, transaction_id VARCHAR, kind VARCHAR, transaction_date VARCHAR, transaction_at VARCHAR,
      to_zip VARCHAR, to_state VARCHAR, to_city VARCHAR, to_street VARCHAR,
      from_country VARCHAR, from_zip VARCHAR, from_state VARCHAR, from_city VARCHAR, from_street VARCHAR,
      amount BIGINT, shipping BIGINT, sales_tax BIGINT, customer_id VARCHAR, exemption_type VARCHAR, marketplace BOOLEAN,
      transaction_reference_id VARCHAR, line_items VARCHAR)`)
    return new BulkWriter(db, stage, accountId, source, new Date(now).toISOString(), locks)
  }

  /** Rows stored so far (committed). */
  get inserted(): number {
    return this.#inserted
  }

  /** Stages records; commits each time exactly a row group's worth is staged, whatever the batch size. */
  async add(records: readonly TransactionRecord[]): Promise<void> {
    let rows: AppendValue[][] = []
    for (const r of records) {
      const key = `${r.provider}\u0000${r.transactionId}\u0000${r.kind}`
      if (this.#staged.has(key)) continue
      this.#staged.add(key)
      rows.push([
        r.provider, r.transactionId, r.kind, r.transactionDate, r.transactionAt, r.toZip, r.toState, r.toCity, r.toStreet,
        r.fromCountry, r.fromZip, r.fromState, r.fromCity, r.fromStreet, BigInt(r.amount), BigInt(r.shipping), BigInt(r.salesTax),
        r.customerId, r.exemptionType, r.marketplace, r.referenceId, r.lineItems ? JSON.stringify(r.lineItems) : null,
      ])
      if (this.#staged.size === COMMIT_ROWS) {
        await this.db.append(this.stage, rows, { temp: true })
        rows = []
        await this.commit()
      }
    }
    if (rows.length) await this.db.append(this.stage, rows, { temp: true })
  }

  /** Copies what is staged into `transactions` in one transaction; resolves once committed. */
  async commit(): Promise<void> {
    if (this.#staged.size === 0) return
    this.#inserted += await this.locks.run([this.accountId], () => this.db.transaction(async (tx) => {
      const result = await tx.rows(
        `INSERT INTO transactions
         SELECT ?, s.provider, s.transaction_id, s.kind, s.transaction_date::DATE, s.transaction_at::TIMESTAMP, 'US', s.to_zip, s.to_state,
           s.to_city, s.to_street, s.from_country, s.from_zip, s.from_state, s.from_city, s.from_street, s.amount, s.shipping, s.sales_tax,
           s.customer_id, s.exemption_type, s.marketplace, s.transaction_reference_id, s.line_items, ?, ?::TIMESTAMP, ?::TIMESTAMP
         FROM ${this.stage} AS s
         ANTI JOIN (SELECT provider, transaction_id, kind FROM transactions WHERE account_id = ?) AS t
           ON t.provider = s.provider AND t.transaction_id = s.transaction_id AND t.kind = s.kind`,
        [this.accountId, this.source, this.stamp, this.stamp, this.accountId],
      )
      await tx.run(`DELETE FROM ${this.stage}`)
      return Number(result[0]?.Count ?? 0)
    }))
    // Keys already committed are in `transactions`, where the anti-join finds them.
    this.#staged = new Set()
  }

  /** Drops the staging table (whatever was not committed is discarded). */
  async close(): Promise<void> {
    await this.db.run(`DROP TABLE IF EXISTS temp.main.${this.stage}`).catch(() => undefined)
    await this.db.close()
  }
}
