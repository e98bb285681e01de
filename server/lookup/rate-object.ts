// The api.md "Simple answer" rate object, the per-candidate summaries of an ambiguous ZIP, and the full-mode rows.
import { sourceKindOfFile, type SourceKind } from '../../snapshot-contract/feed-traits.ts'
import { LEVELS } from '../../snapshot-contract/model.ts'
import type { Authority, Candidate, RateIndex } from '../../snapshot-contract/rate-index.ts'
import { formatRate } from '../../snapshot-contract/rate-units.ts'
import { rateParts, type RateParts } from './rate-parts.ts'
import type { CandidateSummary, RateObject, RateRow } from './tax-response.ts'

const ZERO = formatRate(0)

const countyNameOf = (candidate: Candidate): string => candidate.county?.name.toUpperCase() ?? ''
const cityNameOf = (candidate: Candidate): string => candidate.place?.name.toUpperCase() ?? ''

export function rateObject(zip: string, state: string, candidate: Candidate, parts: RateParts, freightTaxable: boolean): RateObject {
  return {
    zip,
    state,
    state_rate: formatRate(parts.state),
    county: countyNameOf(candidate),
    county_rate: formatRate(parts.county),
    city: cityNameOf(candidate),
    city_rate: formatRate(parts.city),
    combined_district_rate: formatRate(parts.district),
    combined_rate: formatRate(parts.combined),
    freight_taxable: freightTaxable,
    country: 'US',
    country_rate: ZERO,
  }
}

export function candidateSummary(rates: RateIndex, candidate: Candidate, isoDate: string, selected: boolean): CandidateSummary {
  const authorities = rates.authoritiesOn(candidate.stack, isoDate)
  const parts = rateParts(authorities)
  return {
    county: countyNameOf(candidate),
    county_fips: candidate.county?.fips || null,
    city: cityNameOf(candidate),
    city_geoid: candidate.place?.geoid || null,
    weight: candidate.weight,
    basis: candidate.basis,
    source: [...new Set(authorities.map((a) => a.source))].join(', '),
    selected,
    state_rate: formatRate(parts.state),
    county_rate: formatRate(parts.county),
    city_rate: formatRate(parts.city),
    combined_district_rate: formatRate(parts.district),
    combined_rate: formatRate(parts.combined),
  }
}

export function rateRows(authorities: readonly Authority[], sourceKind: SourceKind): RateRow[] {
  return [...authorities]
    .sort((a, b) => LEVELS.indexOf(a.level) - LEVELS.indexOf(b.level) || a.code.localeCompare(b.code))
    .map((authority) => ({
      level: authority.level,
      name: authority.name,
      code: authority.code,
      rate: formatRate(authority.rate),
      effective_from: authority.from,
      effective_to: authority.to,
      source_file: authority.source,
      source_kind: sourceKindOfFile(authority.source, sourceKind),
    }))
}
