// Bulk writes into PostgreSQL's `transactions` (a backfill): rows are encoded in COPY's text
// format as they arrive, and every PG_COMMIT_ROWS of them are streamed (COPY) into a temporary
// table and moved into `transactions` by one INSERT … ON CONFLICT DO NOTHING in one transaction —
// keys already stored (by this import's earlier chunks, an earlier run, or another node) are
// skipped, which is what makes a re-run add nothing. A chunk commits on its own connection while
// the next one is being read and validated, so the database's work and the server's overlap; at
// most one chunk commits at a time, in order. What is staged but not committed is gone if the
// process dies, and was never acknowledged.
import { pipeline } from 'node:stream/promises'
import { Readable } from 'node:stream'
import { from as copyFrom } from 'pg-copy-streams'
import type { TransactionRecord, TransactionSource } from '../transaction-record.ts'
import type { BulkWriter } from '../transaction-store.ts'
import { PG_COMMIT_ROWS } from './pg-commit-rows.ts'
import type { PgDatabase } from './pg-database.ts'


const STAGE_COLUMNS = `provider text, transaction_id text, kind text, transaction_date date, transaction_at timestamp(3),
  to_zip text, to_state text, to_city text, to_street text,
  from_country text, from_zip text, from_state text, from_city text, from_street text,
  amount bigint, shipping bigint, sales_tax bigint, customer_id text, exemption_type text, marketplace boolean,
  transaction_reference_id text, line_items text`

const MOVE = `INSERT INTO transactions (account_id, provider, transaction_id, kind, transaction_date, transaction_at,
    to_country, to_zip, to_state, to_city, to_street, from_country, from_zip, from_state, from_city, from_street,
    amount, shipping, sales_tax, customer_id, exemption_type, marketplace, transaction_reference_id, line_items,
    source, created_at, updated_at)
  SELECT $1, provider, transaction_id, kind, transaction_date, transaction_at,
    'US', to_zip, to_state, to_city, to_street, from_country, from_zip, from_state, from_city, from_street,
    amount, shipping, sales_tax, customer_id, exemption_type, marketplace, transaction_reference_id, line_items,
    $2, $3::timestamp, $3::timestamp
  FROM backfill_stage
  ON CONFLICT DO NOTHING`

/** A value in COPY's text format: \N for NULL, and the four characters COPY gives meaning to escaped. */
function copyText(value: string | number | boolean | null): string {
  if (value === null) return '\\N'
  if (typeof value === 'boolean') return value ? 't' : 'f'
  if (typeof value === 'number') return String(value)
  return /[\\\n\r\t]/.test(value) ? value.replace(/[\\\n\r\t]/g, (c) => ({ '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' })[c]!) : value
}

function copyLine(r: TransactionRecord): string {
  return [
    r.provider, r.transactionId, r.kind, r.transactionDate, r.transactionAt, r.toZip, r.toState, r.toCity, r.toStreet,
    r.fromCountry, r.fromZip, r.fromState, r.fromCity, r.fromStreet, r.amount, r.shipping, r.salesTax,
    r.customerId, r.exemptionType, r.marketplace, r.referenceId, r.lineItems ? JSON.stringify(r.lineItems) : null,
  ].map(copyText).join('\t') + '\n'
}

/** Lines joined a thousand at a time: one COPY data message each rather than one per row. */
function* messagesOf(lines: string[]): Generator<string> {
  for (let i = 0; i < lines.length; i += 1_000) yield lines.slice(i, i + 1_000).join('')
}

export class PgBulkWriter implements BulkWriter {
  /** keys staged since the last commit: a key repeated in the import keeps its first row */
  #staged = new Set<string>()
  #lines: string[] = []
  #inserted = 0
  /** the chunk committing now, if any; a failure surfaces on the next call */
  #committing: Promise<void> = Promise.resolve()
  readonly #stamp: string

  constructor(
    private readonly db: PgDatabase,
    private readonly accountId: string,
    private readonly source: TransactionSource,
    now: number,
  ) {
    this.#stamp = new Date(now).toISOString()
  }

  get inserted(): number {
    return this.#inserted
  }

  async add(records: readonly TransactionRecord[]): Promise<void> {
    for (const r of records) {
      const key = `${r.provider}\u0000${r.transactionId}\u0000${r.kind}`
      if (this.#staged.has(key)) continue
      this.#staged.add(key)
      this.#lines.push(copyLine(r))
      if (this.#lines.length === PG_COMMIT_ROWS) await this.#startCommit()
    }
  }

  async commit(): Promise<void> {
    if (this.#lines.length) await this.#startCommit()
    await this.#committing
  }

  async close(): Promise<void> {
    this.#lines = []
    this.#staged = new Set()
    await this.#committing.catch(() => undefined)
  }

  /** Waits for the chunk before (one commit at a time, in order), then commits the staged one without waiting. */
  async #startCommit(): Promise<void> {
    await this.#committing
    const lines = this.#lines
    this.#lines = []
    this.#staged = new Set()
    this.#committing = this.#move(lines)
    // Observed by the next call; not an unhandled rejection meanwhile.
    this.#committing.catch(() => undefined)
  }

  async #move(lines: string[]): Promise<void> {
    const inserted = await this.db.withClient(async (client) => {
      await client.query('BEGIN')
      try {
        await client.query(`CREATE TEMP TABLE backfill_stage (${STAGE_COLUMNS}) ON COMMIT DROP`)
        await pipeline(Readable.from(messagesOf(lines)), client.query(copyFrom('COPY backfill_stage FROM STDIN')))
        const moved = await client.query(MOVE, [this.accountId, this.source, this.#stamp])
        await client.query('COMMIT')
        return moved.rowCount ?? 0
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined)
        throw error
      }
    })
    this.#inserted += inserted
  }
}
