// Checks one state's freshly loaded data before it may replace what is in service: the pinned
// anchors of its descriptor and the invariants every answer must satisfy.
import type { StateDescriptor } from '../sources/descriptor.ts'
import { stateFacts, stateRateOn } from '../sources/state-facts.ts'
import type { AnchorResult } from '../snapshot-contract/manifest.ts'
import { formatRate } from '../snapshot-contract/rate-units.ts'
import type { RateIndex } from '../snapshot-contract/rate-index.ts'

const SINGLE_LEVELS = new Set(['state', 'county', 'city'])

/** The combined rate of a ZIP's default answer (its highest-weight candidate) on a date. */
export function defaultCombinedRate(index: RateIndex, zip: string, state: string, isoDate: string): number | null {
  const entry = index.lookupZip(zip).find((e) => e.state === state)
  const candidate = entry?.candidates[0]
  return candidate ? index.combinedRate(candidate.stack, isoDate) : null
}

export function checkAnchors(
  index: RateIndex,
  descriptor: StateDescriptor,
  effectiveThrough: string,
): AnchorResult[] {
  return descriptor.anchors.map((anchor) => {
    const base = { zip: anchor.zip, asOf: anchor.asOf, edition: anchor.edition, expected: anchor.expected }
    // Data that does not yet reach the anchor's date (an older edition) cannot be held to it.
    if (effectiveThrough < anchor.asOf) return { ...base, actual: null, outcome: 'not_applicable' as const }
    const actual = defaultCombinedRate(index, anchor.zip, descriptor.code, anchor.asOf)
    const text = actual === null ? null : formatRate(actual)
    return { ...base, actual: text, outcome: text === anchor.expected ? ('held' as const) : ('diverged' as const) }
  })
}

export type InvariantViolation = {
  zip: string
  /** a violation of the model itself (two authorities of one level summed): the whole load is unsound */
  structural: boolean
  message: string
}

/** Every violated invariant of the state's answers on a date. */
export function checkInvariants(index: RateIndex, descriptor: StateDescriptor, isoDate: string): InvariantViolation[] {
  const violations: InvariantViolation[] = []
  const [low, high] = descriptor.combinedBounds
  const facts = stateFacts(descriptor.code)
  const stateRate = facts ? (stateRateOn(facts, isoDate) ?? 0) : 0
  for (const i of index.entriesOfState(descriptor.code)) {
    const entry = index.entryAt(i)
    for (const candidate of entry.candidates) {
      const authorities = index.authoritiesOn(candidate.stack, isoDate)
      const seen = new Set<string>()
      for (const authority of authorities) {
        if (SINGLE_LEVELS.has(authority.level) && seen.has(authority.level)) {
          violations.push({ zip: entry.zip, structural: true, message: `two ${authority.level} authorities in force on ${isoDate} would be summed` })
        }
        seen.add(authority.level)
      }
      const combined = authorities.reduce((sum, authority) => sum + authority.rate, 0)
      if (combined < low || combined > high) {
        violations.push({ zip: entry.zip, structural: false, message: `combined ${formatRate(combined)} outside the legal bounds ${formatRate(low)}–${formatRate(high)}` })
      }
      if (stateRate > 0 && combined === 0) {
        violations.push({ zip: entry.zip, structural: false, message: 'combined rate is zero in a state with a sales tax' })
      }
    }
  }
  return violations
}
