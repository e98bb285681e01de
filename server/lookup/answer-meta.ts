// The parts of meta that describe certainty and dating: confidence, effective_date and its basis,
// and the deprecated period.
import { feedTraits, isStatewide } from '../../snapshot-contract/feed-traits.ts'
import type { StateRecord } from '../../snapshot-contract/manifest.ts'
import type { Authority } from '../../snapshot-contract/rate-index.ts'
import type { ConfidenceCap } from './located.ts'
import type { CONFIDENCES, EFFECTIVE_DATE_BASES } from './tax-response.ts'

export type Confidence = (typeof CONFIDENCES)[number]
export type EffectiveDateBasis = (typeof EFFECTIVE_DATE_BASES)[number]

/**
 * exact   the statutory statewide rate of a `static` state: the same everywhere in the state; or the
 *         binding an SST boundary file gives the ZIP+4 sent (`exactZip4`), nothing lowering it
 * low     a nearest-centroid point answer, or a place answered by its county (no ZIP bound to it)
 *         (also a place name found in several states, answered where it is most populous), or a
 *         rate the file does not print because it varies by address (estimated from other records),
 *         or a local tax left out because no source publishes its rate (an Idaho resort city's)
 * medium  an answer from a feed whose ceiling is medium (an aggregator estimate), a ZIP whose candidates differ in combined rate
 *         answered by weight, one of several same-named places of a state, an answer where a
 *         local tax that could not be bound to ZIPs may lie (it may apply and is not included),
 *         or a printed rate the file flags as varying within the jurisdiction
 * high    one jurisdiction from a feed whose ceiling is high (official files), no unplaced local tax that may lie there
 * none    never sent with a 200 (nothing resolved is a 404)
 */
export function confidenceOf(record: Pick<StateRecord, 'feed' | 'klass'>, cap: ConfidenceCap, ambiguousRate: boolean, unplacedTaxes: boolean, exactZip4 = false): Confidence {
  if (isStatewide(record)) return 'exact'
  if (cap === 'low') return 'low'
  if (cap === 'medium' || ambiguousRate || unplacedTaxes || feedTraits(record.feed).confidenceCeiling === 'medium') return 'medium'
  return exactZip4 ? 'exact' : 'high'
}

/** Publisher-dated rows (SST, ordmache) give the latest start among the rates answered; other sources give none. */
export function effectiveDateOf(basis: EffectiveDateBasis, authorities: readonly Authority[]): string | null {
  if (basis !== 'publisher_effective_date') return null
  let latest: string | null = null
  for (const authority of authorities) if (authority.from && (latest === null || authority.from > latest)) latest = authority.from
  return latest
}

export function effectiveDateBasisOf(record: Pick<StateRecord, 'feed' | 'effective_date_basis'>): EffectiveDateBasis {
  if (record.effective_date_basis) return record.effective_date_basis
  return feedTraits(record.feed).effectiveDateBasis
}

/** Deprecated meta.period: the SST rate file's quarter (GAR2026Q2FEB19 → 20262); null for other feeds. */
export function legacyPeriodOf(record: Pick<StateRecord, 'feed' | 'edition'>): string | null {
  if (!feedTraits(record.feed).quarterlyEditions || !record.edition) return null
  const match = /^(\d{4})Q([1-4])/.exec(record.edition)
  return match ? `${match[1]}${match[2]}` : null
}
