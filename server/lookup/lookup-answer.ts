// A located, dated lookup turned into the simple (spec 2.1/2.2) or full (spec 2.4) body.
import { feedTraits, isStatewide } from '../../snapshot-contract/feed-traits.ts'
import { freightTaxable, stateFacts } from '../../sources/state-facts.ts'
import { confidenceOf, effectiveDateBasisOf, effectiveDateOf, legacyPeriodOf } from './answer-meta.ts'
import type { DatedView } from './dated-view.ts'
import { lowerCap, type Located, type ResolvedVia } from './located.ts'
import type { Normalization } from './lookup-input.ts'
import type { ResponseShape } from './lookup-request.ts'
import { rateVariesWarning, warning, type LookupWarning, type WarningObject } from './lookup-warnings.ts'
import { candidateSummary, rateObject, rateRows } from './rate-object.ts'
import { rateParts } from './rate-parts.ts'
import { restatedDefault } from './restated-default.ts'
import { factsOf } from './snapshot-facts.ts'
import type { Billing, CandidateSummary, FullLookupBody, SimpleLookupBody } from './tax-response.ts'

export type AnswerInput = {
  located: Located
  dated: DatedView
  normalization: Normalization
  shape: ResponseShape
  /** the billing block of a full answer */
  billing: () => Billing
}

function ambiguityWarning(located: Located, summaries: CandidateSummary[], rateDiffers: boolean): WarningObject {
  const chosen = summaries[located.choice]!
  const others = summaries.filter((_, i) => i !== located.choice)
  return warning(
    'ambiguous_zip5',
    `ZIP ${located.entry.zip} spans ${summaries.length} jurisdictions; answered the highest-weight one (${chosen.county || 'no county'}${chosen.city ? `, ${chosen.city}` : ''}, weight ${chosen.weight}). ` +
      (rateDiffers ? 'The others have different combined rates; send an address with the city it lies in (its ZIP\'s postal name does not choose), or coordinates, to choose.' : 'All of them have the same combined rate.'),
    { candidates: others.map(({ county, city, weight, combined_rate }) => ({ county, city, weight, combined_rate })) },
  )
}

export function buildAnswer({ located, dated, normalization, shape, billing }: AnswerInput): SimpleLookupBody | FullLookupBody {
  const { view, isoDate } = dated
  const { entry, state } = located
  const facts = factsOf(view)
  const record = facts.record(state)!
  const candidate = entry.candidates[located.choice]!
  const authorities = view.rates.authoritiesOn(candidate.stack, isoDate)
  const parts = rateParts(authorities)
  const legal = stateFacts(state)
  const rate = rateObject(entry.zip, state, candidate, parts, legal !== undefined && freightTaxable(legal))

  const ambiguous = entry.candidates.length > 1
  const byWeight = ambiguous && located.chosenBy === 'weight'
  const summaries = byWeight || shape === 'full' ? entry.candidates.map((c, i) => candidateSummary(view.rates, c, isoDate, i === located.choice)) : null
  const rateDiffers = byWeight && summaries!.some((s) => s.combined_rate !== rate.combined_rate)

  const statewide = isStatewide(record)
  const resolvedVia: ResolvedVia = statewide ? 'static_statewide' : located.resolvedVia
  const warnings: LookupWarning[] = [...normalization.warnings, ...located.warnings, ...dated.warnings]
  const restated = restatedDefault(view.rates, entry, located.choice, isoDate)
  warnings.push(...restated.warnings)
  if (byWeight) warnings.push(ambiguityWarning(located, summaries!, rateDiffers))
  // A ZIP+4 or ZIP the boundary file binds has every tax that lies there named: none is unplaced.
  const boundPlaced = located.exact === true || candidate.basis === 'boundary_share'
  const standing = facts.standingWarnings(state, candidate.county?.fips ?? null, isoDate, shape === 'full', authorities, boundPlaced)
  warnings.push(...standing)
  const varies = rateVariesWarning(record, authorities)
  if (varies) warnings.push(varies.warning)
  // Local taxes of the state that could not be placed may apply here: the answer may be short of them.
  const unplacedTaxes = standing.some((w) => typeof w === 'object' && w.code === 'unplaced_jurisdictions')

  const basis = effectiveDateBasisOf(record)
  const meta = {
    resolved_via: resolvedVia,
    confidence: confidenceOf(record, lowerCap(lowerCap(located.confidenceCap, restated.cap), varies?.cap ?? null), rateDiffers, unplacedTaxes, located.exact === true),
    effective_date: effectiveDateOf(basis, authorities),
    effective_date_basis: basis,
    period: legacyPeriodOf(record),
    feed: record.feed,
    warnings,
  }
  const normalized = normalization.applied.length > 0 ? { normalized: true as const, applied: normalization.applied } : undefined
  if (shape === 'simple') return { rate, meta: normalized ? { ...meta, normalization: normalized } : meta }

  const point = located.point
  return {
    rate,
    meta,
    rows: rateRows(authorities, feedTraits(record.feed).sourceKind),
    resolved_place: {
      zip: entry.zip,
      zip4: located.zip4,
      state,
      county: candidate.county,
      city: candidate.place && { geoid: candidate.place.geoid || null, name: candidate.place.name },
      usps_city: entry.city,
      lat: point ? point.lat : entry.lat,
      lng: point ? point.lng : entry.lng,
      resolved_via: resolvedVia,
    },
    ambiguous_zip5: { ambiguous, candidates: summaries! },
    billing: billing(),
    warnings,
    ...(normalized ? { normalization: normalized } : {}),
  }
}
