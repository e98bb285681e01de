// A backfill run: every row is validated on its own (shape, meaning, window); valid rows are
// handed to the store's bulk writer in batches (it commits a chunk at a time, and the rest at the
// end, before the answer). Rows the account already holds (or that repeat earlier in
// the upload) are counted as duplicates and left as stored, so re-running a file adds nothing.
// Every YIELD_ROWS rows the import lets the event loop take other requests (orders, lookups)
// before it reads on: a backfill streams at full speed without starving them.
import type { RateIndex } from '../../../snapshot-contract/rate-index.ts'
import { validate, type ValidationDetail } from '../../http/validation.ts'
import type { TransactionStore } from '../../store/transaction-store.ts'
import type { DateWindow } from '../../sale/date-window.ts'
import { normalizeTransaction } from '../normalize-transaction.ts'
import { TransactionInput } from '../transaction-input.ts'
import type { TransactionRecord } from '../../store/transaction-record.ts'
import type { BackfillRow } from './backfill-rows.ts'
import { Rejections, type RejectedRow } from './rejections.ts'

const YIELD_ROWS = 25

const otherRequests = () => new Promise<void>((resolve) => setImmediate(resolve))

export type BackfillOptions = {
  store: TransactionStore
  accountId: string
  now: number
  window: DateWindow
  rates: RateIndex
  batchSize: number
  keepRejected: number
}

export type BackfillReport = {
  received: number
  accepted: number
  duplicate: number
  rejected: number
  rejected_rows: RejectedRow[]
  rejected_rows_truncated: boolean
  window: DateWindow
  /** first and last transaction date among the valid rows (accepted or duplicate) */
  valid_dates: { earliest: string; latest: string } | null
}

export async function importBackfill(batches: AsyncIterable<BackfillRow[]> | Iterable<BackfillRow[]>, options: BackfillOptions): Promise<BackfillReport> {
  const rejections = new Rejections(options.keepRejected)
  let received = 0
  let valid = 0
  let earliest: string | null = null
  let latest: string | null = null
  let batch: TransactionRecord[] = []
  const writer = await options.store.bulkWriter(options.accountId, 'backfill', options.now)
  try {
    for await (const rows of batches) {
      for (const row of rows) {
        if (++received % YIELD_ROWS === 0) await otherRequests()
        if ('error' in row) {
          rejections.add(row.line, undefined, [{ loc: [], msg: row.error, type: 'json_invalid' }])
          continue
        }
        const record = recordOf(row.value, options)
        if (!record.ok) {
          rejections.add(row.line, row.value, record.detail)
          continue
        }
        valid++
        const date = record.record.transactionDate
        if (earliest === null || date < earliest) earliest = date
        if (latest === null || date > latest) latest = date
        batch.push(record.record)
        if (batch.length >= options.batchSize) {
          await writer.add(batch)
          batch = []
        }
      }
    }
    await writer.add(batch)
    await writer.commit()
  } finally {
    await writer.close()
  }
  const accepted = writer.inserted
  const duplicate = valid - accepted

  return {
    received,
    accepted,
    duplicate,
    rejected: rejections.count,
    rejected_rows: rejections.kept,
    rejected_rows_truncated: rejections.truncated,
    window: options.window,
    valid_dates: earliest && latest ? { earliest, latest } : null,
  }
}

type RowRecord = { ok: true; record: TransactionRecord } | { ok: false; detail: ValidationDetail[] }

function recordOf(value: unknown, options: BackfillOptions): RowRecord {
  const shaped = validate(TransactionInput, 'body', value)
  // Located within the row, not the request body.
  if (!shaped.ok) return { ok: false, detail: shaped.detail.map((d) => ({ ...d, loc: d.loc.slice(1) })) }
  const normalized = normalizeTransaction(shaped.value, { rates: options.rates })
  if (!normalized.ok) return normalized
  const date = normalized.record.transactionDate
  const { from, to } = options.window
  if (date < from) return outsideWindow(date, `is older than the backfill window, which starts ${from} (24 months back)`)
  if (date > to) return outsideWindow(date, `is in the future (today is ${to}, UTC)`)
  return normalized
}

const outsideWindow = (date: string, why: string): RowRecord => ({
  ok: false,
  detail: [{ loc: ['transaction_date'], msg: `transaction_date ${date} ${why}`, type: 'outside_window', input: date }],
})
