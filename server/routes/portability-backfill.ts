// POST /v1/portability/transactions/backfill: history for the nexus tracker, as NDJSON streamed
// in the request body (no size limit; read line by line, written as it arrives) or as one JSON
// array (up to TAXATLAS_BACKFILL_JSON_LIMIT). Rows are judged one by one; the answer counts accepted,
// duplicate and rejected rows and lists the first rejected ones with their reasons.
import * as z from 'zod'
import { ValidationIssue } from '../base/errors.ts'
import { backfillBody } from '../portability/backfill/backfill-body.ts'
import { importBackfill } from '../portability/backfill/backfill-import.ts'
import { monthsBefore, utcDate } from '../sale/date-window.ts'
import { BACKFILL_LIMITS } from '../portability/portability-settings.ts'
import { COMMIT_ROWS } from '../store/transactions-bulk.ts'
import { PG_COMMIT_ROWS } from '../store/postgres/pg-commit-rows.ts'
import { defineRoute } from '../dispatch/route.ts'

// Digits grouped by hand: toLocaleString would load ICU's number formats while the server starts.
const grouped = (count: number) => String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',')

const DateWindowView = z.object({ from: z.string(), to: z.string() })

export const BackfillReportBody = z
  .object({
    format: z.enum(['ndjson', 'json']),
    received: z.number().int().describe('rows read (blank NDJSON lines are not rows)'),
    accepted: z.number().int().describe('rows stored by this request'),
    duplicate: z.number().int().describe('valid rows already stored (or repeated earlier in the upload); left as stored'),
    rejected: z.number().int(),
    rejected_rows: z
      .array(
        z.object({
          line: z.number().int().describe('NDJSON line number; for a JSON array, the 1-based position'),
          transaction_id: z.string().nullable(),
          errors: z.array(ValidationIssue),
        }),
      )
      .describe(`the first ${BACKFILL_LIMITS.rejectedRowsKept} rejected rows`),
    rejected_rows_truncated: z.boolean(),
    window: DateWindowView.describe(`accepted transaction dates (UTC): ${BACKFILL_LIMITS.windowMonths} months back through today`),
    valid_dates: z.object({ earliest: z.string(), latest: z.string() }).nullable().describe('first and last date among the valid rows'),
  })
  .meta({ id: 'BackfillReport' })

export const backfillRoute = defineRoute({
  method: 'POST',
  path: '/v1/portability/transactions/backfill',
  operationId: 'backfillTransactions',
  summary: 'Import 12 to 24 months of order history',
  description: [
    'Body: NDJSON (Content-Type application/x-ndjson, optionally Content-Encoding gzip), one transaction per line with the fields of POST /v1/portability/orders, streamed without a size or time limit (cut with 408 only when no byte arrives for TAXATLAS_BACKFILL_IDLE_TIMEOUT_MS, 60 s by default);',
    'or a JSON array (application/json), read whole, up to TAXATLAS_BACKFILL_JSON_LIMIT bytes (16 MiB by default).',
    `Each row is validated on its own; rows dated more than ${BACKFILL_LIMITS.windowMonths} months back or in the future (UTC) are rejected.`,
    'A row whose (provider, transaction_id, kind) is already stored counts as a duplicate and is left as stored, so re-running a file adds nothing.',
    `Valid rows are committed in chunks (${grouped(COMMIT_ROWS)} rows, one row group, on the DuckDB store; ${grouped(PG_COMMIT_ROWS)} on PostgreSQL) and the rest at the end; the answer comes after the last commit.`,
    'An upload that fails or is cut off keeps what was committed before; sending the file again is safe.',
  ].join(' '),
  tags: ['portability'],
  auth: 'key',
  responses: { 200: { description: 'What was accepted, duplicate and rejected.', schema: BackfillReportBody } },
}).handle(async ({ req, caller, store, snapshot, now, settings }) => {
  const body = await backfillBody(req, { jsonLimit: settings.portability.backfillJsonLimit, maxLineBytes: BACKFILL_LIMITS.maxLineBytes, idleTimeoutMs: settings.portability.backfillIdleTimeoutMs })
  const { transactions } = store
  const today = utcDate(now)
  const report = await importBackfill(body.batches, {
    store: transactions,
    accountId: caller.account.id,
    now,
    window: { from: monthsBefore(today, BACKFILL_LIMITS.windowMonths), to: today },
    rates: snapshot.rates,
    batchSize: BACKFILL_LIMITS.batchRows,
    keepRejected: BACKFILL_LIMITS.rejectedRowsKept,
  })
  return { status: 200, body: { format: body.format, ...report } }
})
