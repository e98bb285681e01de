// TaxJar's `rate` object (GET /v2/rates/:zip), from our rate object: the same fields and values
// (rates as strings, upper-case names), in TaxJar's order. Used by format=taxjar and by the
// TaxJar-compatible route.
import * as z from 'zod'
import type { RateObject } from '../lookup/tax-response.ts'

const rate = z.string().regex(/^\d+\.\d{5}$/)

export const TaxjarRate = z
  .object({
    zip: z.string(),
    country: z.literal('US'),
    country_rate: rate,
    state: z.string(),
    state_rate: rate,
    county: z.string(),
    county_rate: rate,
    city: z.string(),
    city_rate: rate,
    combined_district_rate: rate,
    combined_rate: rate,
    freight_taxable: z.boolean(),
  })
  .meta({ id: 'TaxjarRate', description: "TaxJar's rate object; every rate a string with 5 decimals." })
export type TaxjarRate = z.output<typeof TaxjarRate>

export const TaxjarRatesBody = z.object({ rate: TaxjarRate }).meta({ id: 'TaxjarRates' })
export type TaxjarRatesBody = z.output<typeof TaxjarRatesBody>

export function taxjarRates(rate: RateObject): TaxjarRatesBody {
  return {
    rate: {
      zip: rate.zip,
      country: rate.country,
      country_rate: rate.country_rate,
      state: rate.state,
      state_rate: rate.state_rate,
      county: rate.county,
      county_rate: rate.county_rate,
      city: rate.city,
      city_rate: rate.city_rate,
      combined_district_rate: rate.combined_district_rate,
      combined_rate: rate.combined_rate,
      freight_taxable: rate.freight_taxable,
    },
  }
}
