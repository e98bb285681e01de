// The response bodies of GET /v1/tax/{state} as zod schemas: the types the answer is built as, and
// what /openapi.json documents. They are not parsed at run time.
import * as z from 'zod'
import { FEED_KINDS_IN_WORDS, FeedKind, SourceKind } from '../../snapshot-contract/feed-traits.ts'
import { CANDIDATE_BASES } from '../../snapshot-contract/model.ts'
import { RESOLVED_VIA } from './located.ts'
import { WARNING_CODES } from './lookup-warnings.ts'

const rate = (description?: string) => {
  const schema = z.string().regex(/^\d+\.\d{5}$/)
  return description ? schema.describe(description) : schema
}

export const CONFIDENCES = ['exact', 'high', 'medium', 'low', 'none'] as const
export const EFFECTIVE_DATE_BASES = ['publisher_effective_date', 'edition_only', 'no_published_date'] as const

export const RateObject = z
  .object({
    zip: z.string().describe('the 5-digit ZIP answered'),
    state: z.string().describe('2-letter upper-case state code'),
    state_rate: rate('state level; in CA the statewide 7.25% (6% state + 1.25% uniform local)'),
    county: z.string().describe('upper-case county name; "" when unknown'),
    county_rate: rate(),
    city: z.string().describe('upper-case taxing place name; "" when unincorporated or no place is modelled'),
    city_rate: rate(),
    combined_district_rate: rate('sum of special-district rates; in CA every district tax above the statewide 7.25%'),
    combined_rate: rate('exactly state_rate + county_rate + city_rate + combined_district_rate'),
    freight_taxable: z.boolean().describe("from the state's rules: delivery charges follow the goods"),
    country: z.literal('US'),
    country_rate: rate('always 0.00000'),
  })
  .meta({ id: 'Rate', description: 'Spec 2.1. Every rate is a string with exactly 5 decimals.' })

export const WarningItem = z
  .union([
    z.string().describe('a repair message of the normalization (2.3)'),
    z
      .object({ code: z.enum(Object.keys(WARNING_CODES) as [keyof typeof WARNING_CODES]), message: z.string() })
      .catchall(z.unknown())
      .describe(Object.entries(WARNING_CODES).map(([code, meaning]) => `${code}: ${meaning}`).join('; ')),
  ])
  .meta({ id: 'LookupWarning' })

export const NormalizationBlock = z
  .object({
    normalized: z.literal(true),
    applied: z.array(
      z.object({
        rule_id: z.string(),
        field: z.string(),
        raw: z.string(),
        normalized: z.string(),
        confidence: z.enum(['unambiguous', 'heuristic']),
        detail: z.record(z.string(), z.unknown()),
      }),
    ),
  })
  .meta({ id: 'Normalization', description: 'Spec 2.3; present only when something was normalized.' })

const metaFields = {
  resolved_via: z.enum(RESOLVED_VIA),
  confidence: z.enum(CONFIDENCES).describe('exact: statutory statewide rate, or the binding an SST boundary file gives the ZIP+4 sent; high: official source, one jurisdiction; medium: aggregator estimate or a ZIP whose candidates differ, resolved by weight; low: nearest centroid or county-only answer; none: never on a 200'),
  effective_date: z.string().nullable().describe('latest start date of the rates answered, where the publisher dates its rows (SST); else null'),
  effective_date_basis: z.enum(EFFECTIVE_DATE_BASES),
  period: z.string().nullable().describe('deprecated: the SST rate file quarter as YYYYQ (20262); null elsewhere'),
  feed: FeedKind.describe(`the feed the answer comes from: ${FEED_KINDS_IN_WORDS}; a fallback says why in the feed_fallback warning`),
  warnings: z.array(WarningItem),
}

export const LookupMeta = z
  .object({ ...metaFields, normalization: NormalizationBlock.optional() })
  .meta({ id: 'LookupMeta', description: 'Spec 2.2.' })

export const SimpleLookupBody = z.object({ rate: RateObject, meta: LookupMeta }).meta({ id: 'TaxLookupSimple' })

export const RateRow = z
  .object({
    level: z.enum(['state', 'county', 'city', 'district']),
    name: z.string(),
    code: z.string().describe('the source\'s code for the authority'),
    rate: rate(),
    effective_from: z.string().nullable(),
    effective_to: z.string().nullable(),
    source_file: z.string().describe('file (or statute label) the rate was read from'),
    source_kind: SourceKind,
  })
  .meta({ id: 'RateRow' })

export const CandidateSummary = z
  .object({
    county: z.string(),
    county_fips: z.string().nullable(),
    city: z.string(),
    city_geoid: z.string().nullable(),
    weight: z.number().describe('share of the ZIP\'s addresses, 0..1; where no measured share is held, a ranking (2/3 for the preferred of two)'),
    basis: z
      .enum(CANDIDATE_BASES)
      .describe(
        'why it is a candidate: published (the source\'s own answer), zip_point / usps_city (the place holding the ZIP\'s Census point / named by its USPS city), ' +
          'usual_rate (the rate the other ZIPs of the city, or of the county\'s unincorporated area, agree on), sub_zip_district / neighbour_region (an aggregator row answering part of the ZIP, set aside), ' +
          'aggregator_figure (an official state\'s ZIP answered by the aggregator drop\'s combined rate because the official answer is only a lower bound) / lower_bound (that official answer, kept), ' +
          'zip_area (a place holding part of the ZIP\'s land, weighted by that part), known_layers (the state and county layers of a ZIP whose source figure failed the legal bounds)',
      ),
    source: z.string().describe('the files (or statute labels) its rates come from'),
    selected: z.boolean(),
    state_rate: rate(),
    county_rate: rate(),
    city_rate: rate(),
    combined_district_rate: rate(),
    combined_rate: rate(),
  })
  .meta({ id: 'ZipCandidate' })

export const FullLookupBody = z
  .object({
    rate: RateObject,
    meta: z.object(metaFields).describe('as in simple mode; normalization is top-level here'),
    rows: z.array(RateRow),
    resolved_place: z.object({
      zip: z.string(),
      zip4: z.string().nullable().describe("as sent; read against the state's SST boundary file ranges where it has them (resolved_via zip4), else not used"),
      state: z.string(),
      county: z.object({ fips: z.string(), name: z.string() }).nullable(),
      city: z.object({ geoid: z.string().nullable(), name: z.string() }).nullable(),
      usps_city: z.string().describe('USPS preferred city of the ZIP'),
      lat: z.number().nullable().describe('the point sent (coordinates mode) or geocoded (census_geocoder), else the ZIP centroid'),
      lng: z.number().nullable(),
      resolved_via: z.enum(RESOLVED_VIA),
    }),
    ambiguous_zip5: z.object({ ambiguous: z.boolean(), candidates: z.array(CandidateSummary) }),
    billing: z.object({
      tier: z.string(),
      account_id: z.string(),
      quota: z.object({
        period: z.string(),
        limit: z.number().int().nullable(),
        used: z.number().int().describe('lookups counted in the period, this one included'),
        remaining: z.number().int().nullable(),
      }),
      lookup_counted: z.boolean(),
    }),
    warnings: z.array(WarningItem),
    normalization: NormalizationBlock.optional(),
  })
  .meta({ id: 'TaxLookupFull', description: 'Spec 2.4 (mode=full).' })

export type RateObject = z.output<typeof RateObject>
export type SimpleLookupBody = z.output<typeof SimpleLookupBody>
export type FullLookupBody = z.output<typeof FullLookupBody>
export type RateRow = z.output<typeof RateRow>
export type CandidateSummary = z.output<typeof CandidateSummary>
export type Billing = FullLookupBody['billing']
