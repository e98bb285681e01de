// GET /v1/portability/returns: the account's stored transactions of one state and period as a
// sales-tax return, one row per jurisdiction the state's return asks for; as JSON, or with
// format=csv as a file of the same rows.
import * as z from 'zod'
import { ValidationErrorBody } from '../base/errors.ts'
import { validationError } from '../http/validation.ts'
import { JsonText } from '../http/respond.ts'
import { earlierSnapshotsFor } from '../lookup/history-source.ts'
import { ReturnsBody, RETURN_FORMATS } from '../portability/returns/returns-body.ts'
import { CSV_CONTENT_TYPE, returnsCsv, returnsFileName } from '../portability/returns/returns-csv.ts'
import { MAX_PERIOD_DAYS, readReturnsRequest } from '../portability/returns/returns-request.ts'
import { salesTaxReturn } from '../portability/returns/sales-tax-return.ts'
import { defineRoute } from '../dispatch/route.ts'

const ReturnsQuery = z.object({
  state: z.string().optional().describe('2-letter code, any case (required)'),
  from: z.string().optional().describe('first day of the period, YYYY-MM-DD (required)'),
  to: z.string().optional().describe(`last day of the period, YYYY-MM-DD (required; at most ${MAX_PERIOD_DAYS} days after from, counting both)`),
  format: z.string().optional().describe(`${RETURN_FORMATS.join(' or ')} (default json): csv answers the same rows as a file`),
})

export const returnsRoute = defineRoute({
  method: 'GET',
  path: '/v1/portability/returns',
  operationId: 'salesTaxReturn',
  summary: 'Your stored transactions of a state and period as a sales-tax return, by jurisdiction',
  description: [
    'Orders less refunds, backfilled history included, by transaction date, placed where they were taxed (the destination ZIP with its city, or the seller\'s ZIP for an in-state sale in an origin state) in the rate data of their dates.',
    'One row per jurisdiction and rate (state, county, city, district), with the code the state\'s return uses where the source gives one: gross sales, exempt sales by why, taxable sales, tax due at the rates in force on each transaction\'s date, tax collected as recorded, and the difference.',
    'Totals reconcile exactly with the transactions; a transaction that cannot be placed or rated is counted in `unassigned` with the reason.',
  ].join(' '),
  tags: ['portability'],
  auth: 'key',
  query: ReturnsQuery,
  responses: {
    200: {
      description: 'The return.',
      schema: ReturnsBody,
      textTypes: { [CSV_CONTENT_TYPE.split(';')[0]!]: 'with format=csv: the rows, the unassigned reasons and the totals, one line each, as an attachment' },
    },
    422: { description: 'A missing state, from or to; an unknown state or format; a date that is not YYYY-MM-DD; to before from; a period longer than 366 days (each named in detail).', schema: ValidationErrorBody },
  },
}).handle(async ({ query, snapshot, store, caller }) => {
  const reading = readReturnsRequest(query)
  if (!reading.ok) throw validationError(reading.detail)
  const { request } = reading
  const body = await salesTaxReturn({ current: snapshot, earlier: earlierSnapshotsFor(snapshot), transactions: store.transactions }, caller.account.id, request)
  if (request.format === 'json') return { status: 200, body }
  return {
    status: 200,
    body: new JsonText(returnsCsv(body)),
    headers: { 'Content-Type': CSV_CONTENT_TYPE, 'Content-Disposition': `attachment; filename="${returnsFileName(body)}"` },
  }
})
