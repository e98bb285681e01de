// TaxJar's GET /v2/summary_rates under /taxjar/v2: per served state, the minimum (state) rate and
// the address-weighted average combined rate of the snapshot in service (taxjar/summary-rates.ts),
// with the edition of the state's data and the snapshot they come from.
import * as z from 'zod'
import { formatRate } from '../../snapshot-contract/rate-units.ts'
import { utcDate } from '../sale/date-window.ts'
import { summaryRates } from '../taxjar/summary-rates.ts'
import { TAXJAR_ERRORS } from '../taxjar/taxjar-error.ts'
import { TAXJAR_BASE, TAXJAR_TAGS } from '../taxjar/taxjar-paths.ts'
import { defineRoute } from '../dispatch/route.ts'

const Rate = z.object({ label: z.string(), rate: z.number().describe('a fraction, e.g. 0.0725') })

const SummaryRate = z.object({
  country_code: z.literal('US'),
  country: z.literal('United States'),
  region_code: z.string(),
  region: z.string(),
  minimum_rate: Rate.describe('the state rate'),
  average_rate: Rate.describe("the state's combined rate averaged over its ZIPs, each ZIP's jurisdictions weighted by their share of its addresses"),
  edition: z.string().nullable().describe("taxatlas: the edition of the state's data in service"),
})

export const taxjarSummaryRatesRoute = defineRoute({
  method: 'GET',
  path: `${TAXJAR_BASE}/summary_rates`,
  operationId: 'taxjarSummaryRates',
  summary: 'TaxJar: summary rates per state',
  description:
    "A fallback for when a live calculation cannot be made: per state the minimum (state) rate and the average combined rate from the snapshot in service. The snapshot holds each ZIP's split of addresses between its jurisdictions, not the number of addresses per ZIP: every ZIP counts once.",
  tags: TAXJAR_TAGS,
  auth: 'key',
  errorFormat: TAXJAR_ERRORS,
  responses: {
    200: {
      description: 'One entry per served state, in code order.',
      schema: z.object({ summary_rates: z.array(SummaryRate), snapshot: z.string().describe('taxatlas: the snapshot in service'), as_of: z.string().describe('taxatlas: the date the rates are in force on') }),
    },
  },
}).handle(({ snapshot, now }) => {
  const asOf = utcDate(now)
  const rows = summaryRates(snapshot, asOf).map((row) => ({
    country_code: 'US' as const,
    country: 'United States' as const,
    region_code: row.state,
    region: row.name,
    minimum_rate: { label: 'State Tax', rate: Number(formatRate(row.minimum)) },
    average_rate: { label: 'Tax', rate: Number(formatRate(row.average)) },
    edition: row.edition,
  }))
  return { status: 200, body: { summary_rates: rows, snapshot: snapshot.id, as_of: asOf } }
})
