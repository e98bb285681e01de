// Avalara's TaxRates model (GET /api/v2/taxrates/byaddress, bypostalcode): `totalRate` and one
// entry per taxing authority, as JSON numbers that are fractions (0.0625 = 6.25%). Each number is
// read from the exact 5-decimal string, so it is the double nearest that decimal, never a float sum.
import * as z from 'zod'
import type { FullLookupBody, RateRow } from '../lookup/tax-response.ts'

const TYPE_OF_LEVEL: Record<RateRow['level'], 'State' | 'County' | 'City' | 'Special'> = {
  state: 'State',
  county: 'County',
  city: 'City',
  district: 'Special',
}

export const AvalaraRatesBody = z
  .object({
    totalRate: z.number().describe('the combined rate as a fraction: exactly the sum of rates[].rate in 1e-5 units'),
    rates: z.array(
      z.object({
        rate: z.number().describe('a fraction, e.g. 0.04 for 4%'),
        name: z.string(),
        type: z.enum(['Country', 'State', 'County', 'City', 'Special']),
      }),
    ),
  })
  .meta({ id: 'AvalaraTaxRates', description: "format=avalara: Avalara's TaxRateModel; rates are JSON numbers (fractions)." })
export type AvalaraRatesBody = z.output<typeof AvalaraRatesBody>

export function avalaraRates(answer: FullLookupBody): AvalaraRatesBody {
  return {
    totalRate: Number(answer.rate.combined_rate),
    rates: answer.rows.map((row) => ({ rate: Number(row.rate), name: row.name, type: TYPE_OF_LEVEL[row.level] })),
  }
}
