// The `native` format of GET /v1/portability/rates: the location answered, its rates by level as
// 5-decimal strings, the rows they add up from, how certain and how dated the answer is, and which
// location the sale was sourced to.
import * as z from 'zod'
import { RESOLVED_VIA } from '../lookup/located.ts'
import { CONFIDENCES, EFFECTIVE_DATE_BASES, NormalizationBlock, RateRow, WarningItem, type FullLookupBody } from '../lookup/tax-response.ts'
import type { MixedSourcingWarning, Sourcing } from '../order-tax/sourcing.ts'

const rate = z.string().regex(/^\d+\.\d{5}$/)

export const SourcingBlock = z
  .object({
    applied: z.enum(['destination', 'origin']).describe("origin: the seller's location was answered (an in-state sale in an origin-sourcing state)"),
    rule: z.enum(['origin', 'destination', 'mixed', 'n/a']).nullable().describe("the destination state's intrastate sourcing rule"),
    reason: z.string(),
  })
  .meta({ id: 'RatesSourcing' })

const MixedSourcing = z
  .object({ code: z.literal('mixed_sourcing'), message: z.string(), state: z.string() })
  .describe('mixed_sourcing: the state splits its taxes between the seller\'s location and the destination; the destination was answered')

export const NativeRatesBody = z
  .object({
    zip: z.string().describe('the 5-digit ZIP answered (the seller\'s when sourcing.applied is origin)'),
    state: z.string(),
    county: z.string().describe('upper case; "" when unknown'),
    city: z.string().describe('upper-case taxing place; "" when none'),
    rates: z.object({
      state: rate,
      county: rate,
      city: rate,
      district: rate.describe('sum of special-district rates'),
      combined: rate.describe('exactly state + county + city + district'),
    }),
    freight_taxable: z.boolean(),
    components: z.array(RateRow).describe('each taxing authority answered; their rates add up to rates.combined'),
    confidence: z.enum(CONFIDENCES),
    resolved_via: z.enum(RESOLVED_VIA),
    sourcing: SourcingBlock,
    effective_date: z.string().nullable(),
    effective_date_basis: z.enum(EFFECTIVE_DATE_BASES),
    warnings: z.array(z.union([WarningItem, MixedSourcing])),
    normalization: NormalizationBlock.optional(),
  })
  .meta({ id: 'PortabilityRatesNative', description: 'format=native (the default). Rates are 5-decimal strings.' })
export type NativeRatesBody = z.output<typeof NativeRatesBody>

export function nativeRates(answer: FullLookupBody, sourcing: Sourcing, sourcingWarning: MixedSourcingWarning | null): NativeRatesBody {
  const { rate, meta } = answer
  return {
    zip: rate.zip,
    state: rate.state,
    county: rate.county,
    city: rate.city,
    rates: {
      state: rate.state_rate,
      county: rate.county_rate,
      city: rate.city_rate,
      district: rate.combined_district_rate,
      combined: rate.combined_rate,
    },
    freight_taxable: rate.freight_taxable,
    components: answer.rows,
    confidence: meta.confidence,
    resolved_via: meta.resolved_via,
    sourcing,
    effective_date: meta.effective_date,
    effective_date_basis: meta.effective_date_basis,
    warnings: sourcingWarning ? [...meta.warnings, sourcingWarning] : meta.warnings,
    ...(answer.normalization ? { normalization: answer.normalization } : {}),
  }
}
