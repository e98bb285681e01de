// A located, dated lookup settled (its rates in integer units, its meta) and written as the simple
// (api.md "Simple answer") or full (api.md "Full answer") body.
import { feedTraits, isStatewide, type SourceKind } from '../../snapshot-contract/feed-traits.ts'
import type { Authority, Candidate } from '../../snapshot-contract/rate-index.ts'
import { freightTaxable, stateFacts } from '../../sources/state-facts.ts'
import { confidenceOf, effectiveDateBasisOf, effectiveDateOf, legacyPeriodOf } from './answer-meta.ts'
import type { DatedView } from './dated-view.ts'
import { lowerCap, type Located, type ResolvedVia } from './located.ts'
import type { Normalization } from './lookup-input.ts'
import type { ResponseShape } from './lookup-request.ts'
import { notIncludedWarning, rateVariesWarning, warning, type LookupWarning, type WarningObject } from './lookup-warnings.ts'
import { candidateSummary, rateObject, rateRows } from './rate-object.ts'
import { rateParts, type RateParts } from './rate-parts.ts'
import { restatedDefault } from './restated-default.ts'
import { factsOf } from './snapshot-facts.ts'
import type { Billing, CandidateSummary, FullLookupBody, RateObject, SimpleLookupBody } from './tax-response.ts'

export type AnswerInput = {
  located: Located
  dated: DatedView
  normalization: Normalization
  shape: ResponseShape
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

/**
 * A located, dated lookup settled before its body is written: the chosen candidate's authorities
 * and their rates by level in 1e-5 units, the rate object, the meta. What the lookup says about
 * one address, for the body of GET /v1/tax and for order tax alike.
 */
export type Answer = {
  shape: ResponseShape
  located: Located
  candidate: Candidate
  authorities: readonly Authority[]
  /** the rates by level, 1e-5 units */
  parts: RateParts
  rate: RateObject
  meta: AnswerMeta
  resolvedVia: ResolvedVia
  /** where the rows' files come from, unless a file says otherwise */
  sourceKind: SourceKind
  /** every candidate of an ambiguous ZIP chosen by weight, or of a full answer; else null */
  summaries: CandidateSummary[] | null
  normalized: NormalizationBlock | undefined
}

export type AnswerMeta = FullLookupBody['meta']
type NormalizationBlock = NonNullable<FullLookupBody['normalization']>

export function settleAnswer({ located, dated, normalization, shape }: AnswerInput): Answer {
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
  const varying = facts.ratesVarying(state, authorities)
  const varies = rateVariesWarning(record, varying)
  if (varies) warnings.push(varies.warning)
  const notIncluded = notIncludedWarning(record, varying)
  if (notIncluded) warnings.push(notIncluded.warning)
  const leftOut = facts.leftOutWarning(state, isoDate)
  if (leftOut) warnings.push(leftOut)
  // Local taxes of the state that could not be placed, or whose rows were left out, may apply here: the answer may be short of them.
  const unplacedTaxes = leftOut !== null || standing.some((w) => typeof w === 'object' && w.code === 'unplaced_jurisdictions')

  const basis = effectiveDateBasisOf(record)
  const meta: AnswerMeta = {
    resolved_via: resolvedVia,
    confidence: confidenceOf(record, lowerCap(lowerCap(lowerCap(located.confidenceCap, restated.cap), varies?.cap ?? null), notIncluded?.cap ?? null), rateDiffers, unplacedTaxes, located.exact === true),
    effective_date: effectiveDateOf(basis, authorities),
    effective_date_basis: basis,
    period: legacyPeriodOf(record),
    feed: record.feed,
    warnings,
  }
  const normalized = normalization.applied.length > 0 ? { normalized: true as const, applied: normalization.applied } : undefined
  return { shape, located, candidate, authorities, parts, rate, meta, resolvedVia, sourceKind: feedTraits(record.feed).sourceKind, summaries, normalized }
}

/** The simple (api.md "Simple answer") or full (api.md "Full answer") body of a settled answer; `billing`: the billing block of a full one. */
export function answerBody(answer: Answer, billing: () => Billing): SimpleLookupBody | FullLookupBody {
  const { rate, meta, normalized, located, candidate } = answer
  if (answer.shape === 'simple') return { rate, meta: normalized ? { ...meta, normalization: normalized } : meta }

  const { entry, point } = located
  return {
    rate,
    meta,
    rows: rateRows(answer.authorities, answer.sourceKind),
    resolved_place: {
      zip: entry.zip,
      zip4: located.zip4,
      state: located.state,
      county: candidate.county,
      city: candidate.place && { geoid: candidate.place.geoid || null, name: candidate.place.name },
      usps_city: entry.city,
      lat: point ? point.lat : entry.lat,
      lng: point ? point.lng : entry.lng,
      resolved_via: answer.resolvedVia,
    },
    ambiguous_zip5: { ambiguous: entry.candidates.length > 1, candidates: answer.summaries! },
    billing: billing(),
    warnings: meta.warnings,
    ...(normalized ? { normalization: normalized } : {}),
  }
}
