// Bulk writes into PostgreSQL's `transactions` (a backfill): rows are encoded in COPY's text
// format as they arrive, whole (the account, the source and the time of the import included), and
// every PG_COMMIT_ROWS of them are committed in one transaction. A chunk is first streamed
// straight into `transactions` (COPY): while no key of it is stored yet, as in a first import,
// that is all, with no second pass over the rows. A key already stored (by this import's earlier
// chunks, an earlier run, an order, or another node) fails that COPY as a whole; the chunk is then
// streamed into a temporary table and moved by one INSERT … ON CONFLICT DO NOTHING, which skips the
// stored keys — what makes a re-run add nothing — and the chunks after it take that way too until
// one of them meets no stored key. The keys are shared between two streams by a hash: each
// stream's chunks commit one at a time, in order, on a connection of their own while the next one
// is being read and validated, so the database works on two cores beside the server, a key
// repeated in the import keeps its first row, and the two never insert the same key. What is
// staged but not committed is gone if the process dies, and was never acknowledged.
import { pipeline } from 'node:stream/promises'
import { Readable } from 'node:stream'
import type { PoolClient } from 'pg'
import { from as copyFrom } from 'pg-copy-streams'
import type { TransactionRecord, TransactionSource } from '../transaction-record.ts'
import type { BulkWriter } from '../transaction-store.ts'
import { CopyData } from './copy-data.ts'
import { PG_COMMIT_ROWS } from './pg-commit-rows.ts'
import type { PgDatabase } from './pg-database.ts'

/** The columns of a COPY line, in order. */
const COLUMNS = `account_id, provider, transaction_id, kind, transaction_date, transaction_at,
  to_country, to_zip, to_state, to_city, to_street, from_country, from_zip, from_state, from_city, from_street,
  amount, shipping, sales_tax, customer_id, exemption_type, marketplace, transaction_reference_id, line_items,
  source, created_at, updated_at`

const COPY_DIRECT = `COPY transactions (${COLUMNS}) FROM STDIN`
const STAGE = 'CREATE TEMP TABLE backfill_stage (LIKE transactions) ON COMMIT DROP'
const COPY_STAGE = `COPY backfill_stage (${COLUMNS}) FROM STDIN`
const MOVE = `INSERT INTO transactions (${COLUMNS}) SELECT ${COLUMNS} FROM backfill_stage ON CONFLICT DO NOTHING`

const UNIQUE_VIOLATION = '23505'

const ESCAPED = /[\\\n\r\t]/
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' }

/** Text in COPY's text format: \N for NULL, and the four characters COPY gives meaning to escaped. */
function copyText(value: string | null): string {
  if (value === null) return '\\N'
  return ESCAPED.test(value) ? value.replace(/[\\\n\r\t]/g, (c) => ESCAPES[c]!) : value
}

/** A record's columns from provider to line_items, tab-separated. */
function copyFields(r: TransactionRecord): string {
  return `${copyText(r.provider)}\t${copyText(r.transactionId)}\t${r.kind}\t${r.transactionDate}\t${r.transactionAt}\t${copyText(r.toCountry)}\t${copyText(r.toZip)}\t${copyText(r.toState)}\t${copyText(r.toCity)}\t${copyText(r.toStreet)}\t${copyText(r.fromCountry)}\t${copyText(r.fromZip)}\t${copyText(r.fromState)}\t${copyText(r.fromCity)}\t${copyText(r.fromStreet)}\t${r.amount}\t${r.shipping}\t${r.salesTax}\t${copyText(r.customerId)}\t${copyText(r.exemptionType)}\t${r.marketplace ? 't' : 'f'}\t${copyText(r.referenceId)}\t${copyText(r.lineItems ? JSON.stringify(r.lineItems) : null)}`
}

/** Chunks committing at once, each on its own connection, so the database's work spreads over two cores. */
const STREAMS = 2

export class PgBulkWriter implements BulkWriter {
  /** a key always goes to the same stream, whose chunks commit one at a time, in order */
  readonly #streams: ChunkStream[]
  /** what starts and ends every line: the account, then the source and the import's time */
  readonly #lineStart: string
  readonly #lineEnd: string

  constructor(db: PgDatabase, accountId: string, source: TransactionSource, now: number) {
    const stamp = new Date(now).toISOString()
    this.#lineStart = `${copyText(accountId)}\t`
    this.#lineEnd = `\t${source}\t${stamp}\t${stamp}\n`
    this.#streams = Array.from({ length: STREAMS }, () => new ChunkStream(db))
  }

  get inserted(): number {
    return this.#streams.reduce((sum, stream) => sum + stream.inserted, 0)
  }

  async add(records: readonly TransactionRecord[]): Promise<void> {
    for (const r of records) {
      const key = `${r.provider}\u0000${r.transactionId}\u0000${r.kind}`
      const stream = this.#streams[hashOf(key) % STREAMS]!
      if (stream.add(key, () => this.#lineStart + copyFields(r) + this.#lineEnd)) await stream.startCommit()
    }
  }

  async commit(): Promise<void> {
    await Promise.all(this.#streams.map((stream) => stream.commit()))
  }

  async close(): Promise<void> {
    await Promise.all(this.#streams.map((stream) => stream.close()))
  }
}

/** FNV-1a of a string's UTF-16 units: which stream a key goes to. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return hash >>> 0
}

/** Chunks of one share of the keys, committed one at a time, in order, each while the next fills. */
class ChunkStream {
  /** keys staged since the last commit: a key repeated in the import keeps its first row */
  #staged = new Set<string>()
  #chunk = new CopyData()
  inserted = 0
  /** whether the next chunk is copied straight into `transactions` (until a chunk meets a stored key) */
  #direct = true
  /** the chunk committing now, if any; a failure surfaces on the next call */
  #committing: Promise<void> = Promise.resolve()

  constructor(private readonly db: PgDatabase) {}

  /** Stages the line of a key not staged yet; true when the chunk is full and must be committed. */
  add(key: string, line: () => string): boolean {
    if (this.#staged.has(key)) return false
    this.#staged.add(key)
    this.#chunk.add(line())
    return this.#chunk.rows === PG_COMMIT_ROWS
  }

  async commit(): Promise<void> {
    if (this.#chunk.rows) await this.startCommit()
    await this.#committing
  }

  async close(): Promise<void> {
    this.#chunk = new CopyData()
    this.#staged = new Set()
    await this.#committing.catch(() => undefined)
  }

  /** Waits for the chunk before, then commits the staged one without waiting. */
  async startCommit(): Promise<void> {
    await this.#committing
    const chunk = this.#chunk
    this.#chunk = new CopyData()
    this.#staged = new Set()
    this.#committing = this.#write(chunk)
    // Observed by the next call; not an unhandled rejection meanwhile.
    this.#committing.catch(() => undefined)
  }

  async #write(chunk: CopyData): Promise<void> {
    const inserted = await this.db.withClient(async (client) => {
      if (this.#direct) {
        const copied = await inTransaction(client, async () => {
          await copy(client, COPY_DIRECT, chunk)
          return chunk.rows
        }).catch((error) => {
          if ((error as { code?: string }).code === UNIQUE_VIOLATION) return null
          throw error
        })
        if (copied !== null) return copied
      }
      return inTransaction(client, async () => {
        await client.query(STAGE)
        await copy(client, COPY_STAGE, chunk)
        return (await client.query(MOVE)).rowCount ?? 0
      })
    })
    this.#direct = inserted === chunk.rows
    this.inserted += inserted
  }
}

const copy = (client: PoolClient, statement: string, chunk: CopyData) => pipeline(Readable.from(chunk.pieces()), client.query(copyFrom(statement)))

async function inTransaction<T>(client: PoolClient, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN')
  try {
    const result = await work()
    await client.query('COMMIT')
    return result
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined)
    throw error
  }
}
