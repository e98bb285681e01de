// Checks one state's freshly loaded data before it may replace what is in service: the pinned
// anchors of its descriptor and the invariants every answer must satisfy.
import type { StateDescriptor } from '../../sources/descriptor.ts'
import { stateFacts, stateRateOn } from '../../sources/state-facts.ts'
import type { FeedKind } from '../../snapshot-contract/feed-traits.ts'
import type { AnchorResult, StateRecord } from '../../snapshot-contract/manifest.ts'
import type { FeedResult, ZipCandidate } from '../../snapshot-contract/model.ts'
import { formatRate } from '../../snapshot-contract/rate-units.ts'
import { RateIndex, writeRateIndex, type ZipMeta } from '../../snapshot-contract/rate-index.ts'
import { CARRIED_SUFFIX, carriedZip, type CarriedZip } from './carry-over.ts'

const SINGLE_LEVELS = new Set(['state', 'county', 'city'])

/** The combined rate of a ZIP's default answer (its highest-weight candidate) on a date. */
export function defaultCombinedRate(index: RateIndex, zip: string, state: string, isoDate: string): number | null {
  const entry = index.lookupZip(zip).find((e) => e.state === state)
  const candidate = entry?.candidates[0]
  return candidate ? index.combinedRate(candidate.stack, isoDate) : null
}

/**
 * The first day the data answers for: the day its feed states, else the earliest start of a
 * state-level rate (an aggregator edition's rows all start on its edition date). Null: no start.
 */
export function coverageStart(result: Pick<FeedResult, 'coverageFrom' | 'jurisdictions'>): string | null {
  if (result.coverageFrom) return result.coverageFrom
  let earliest: string | undefined
  for (const rate of result.jurisdictions) {
    // A ZIP carried over from the previous snapshot keeps its older dates; the new data starts where it does.
    if (rate.level !== 'state' || rate.code.endsWith(CARRIED_SUFFIX)) continue
    if (rate.from === null) return null
    if (earliest === undefined || rate.from < earliest) earliest = rate.from
  }
  return earliest ?? null
}

/** The anchors of the feed that produced the data: another feed's anchors were read from another source. */
export function checkAnchors(
  index: RateIndex,
  descriptor: StateDescriptor,
  feed: FeedKind,
  coverage: { from: string | null; through: string },
): AnchorResult[] {
  return descriptor.anchors.filter((anchor) => anchor.feed === feed).map((anchor) => {
    const base = { zip: anchor.zip, asOf: anchor.asOf, edition: anchor.edition, expected: anchor.expected }
    // Data that does not reach the anchor's date cannot be held to it: an older edition, or a newer
    // one whose rates start after it (the edition in service then is kept as a history layer).
    if (coverage.through < anchor.asOf || (coverage.from !== null && anchor.asOf < coverage.from)) {
      return { ...base, actual: null, outcome: 'not_applicable' as const }
    }
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

// A handful of ZIPs whose answer breaks a bound (an aggregator's tribal or double-counted figure)
// are withheld and listed: each keeps its previous answer, carried over from the previous
// snapshot, when it had one, and is answered as unresolved when it had none. More than that, or
// any structural violation, fails the state.
export const MAX_WITHHELD_SHARE = 0.05

/** The previous snapshot's index a withheld ZIP's previous answer is carried from. */
export type CarryFrom = { index: RateIndex; snapshot: string }

export function withholdViolations(
  loaded: FeedResult,
  descriptor: StateDescriptor,
  isoDate: string,
  zipMeta: (zip: string) => ZipMeta | undefined,
  carryFrom: CarryFrom | null,
): { result: FeedResult; index: RateIndex; withheld: StateRecord['withheld'] } {
  const build = (result: FeedResult) => new RateIndex(writeRateIndex({ states: [{ code: descriptor.code, result }], zipMeta }))
  const index = build(loaded)
  const violations = checkInvariants(index, descriptor, isoDate)
  // A ZIP whose every row was rejected is withheld as well: it had an answer the file meant to restate.
  const rejected = (loaded.rejectedZips ?? []).map((r) => ({ zip: r.zip, structural: false, message: r.reason }))
  if (violations.length === 0 && rejected.length === 0) return { result: loaded, index, withheld: [] }
  const sample = violations.slice(0, 5).map((v) => `${v.zip}: ${v.message}`).join('; ')
  const structural = violations.filter((v) => v.structural)
  if (structural.length) throw new Error(`invariants violated: ${sample}`)
  const violating = new Set(violations.map((v) => v.zip))
  const total = new Set(loaded.candidates.map((c) => c.zip)).size
  if (violating.size > Math.max(1, total * MAX_WITHHELD_SHARE)) {
    throw new Error(`invariants violated at ${violating.size} of ${total} ZIPs: ${sample}`)
  }
  const zips = new Set([...violating, ...rejected.map((r) => r.zip)])
  const carried = new Map<string, CarriedZip>()
  for (const zip of zips) {
    const previous = carryFrom && carriedZip(carryFrom.index, descriptor.code, zip)
    if (previous) carried.set(zip, previous)
  }
  // A real ZIP with no earlier answer keeps what is known of it: the state and county layers of its
  // rejected figure, where they lie within the bounds on their own (a tribal or double-counted local
  // part is what broke them), never a 404 for a ZIP that exists.
  const layered = new Map<string, ZipCandidate[]>()
  const uncarried = loaded.candidates.filter((c) => zips.has(c.zip) && !carried.has(c.zip))
  const layerRate = knownLayerRates(loaded, isoDate)
  for (const [zip, candidates] of groupByZip(uncarried)) {
    const known = knownLayers(candidates, layerRate, descriptor)
    if (known.length) layered.set(zip, known)
  }
  const withheld: StateRecord['withheld'] = [...violations, ...rejected].map((v) => ({
    zip: v.zip,
    reason: v.message,
    ...(carried.has(v.zip) ? { carried_from: carryFrom!.snapshot } : layered.has(v.zip) ? { known_layers: true } : {}),
  }))
  const listed = (list: typeof withheld) => list.map((w) => `${w.zip} ${w.reason}`).join('; ')
  const kept = withheld.filter((w) => w.carried_from)
  const byLayers = withheld.filter((w) => w.known_layers)
  const unresolved = withheld.filter((w) => !w.carried_from && !w.known_layers)
  const count = (list: typeof withheld) => new Set(list.map((w) => w.zip)).size
  const notes = [...loaded.notes]
  if (kept.length) notes.push(`${count(kept)} ZIP(s) withheld, their previous answer kept (snapshot ${carryFrom!.snapshot}): ${listed(kept)}`)
  if (byLayers.length) notes.push(`${count(byLayers)} ZIP(s) withheld, no previous answer: their state and county layers answered at low confidence: ${listed(byLayers)}`)
  if (unresolved.length) notes.push(`${count(unresolved)} ZIP(s) withheld (answered as unresolved, no previous answer): ${listed(unresolved)}`)
  const result: FeedResult = {
    ...loaded,
    // Two carried ZIPs may share an authority (their county): each version once.
    jurisdictions: [...loaded.jurisdictions, ...new Map([...carried.values()].flatMap((c) => c.jurisdictions).map((j) => [`${j.level}|${j.code}|${j.from}|${j.to}|${j.rate}`, j])).values()],
    candidates: [...loaded.candidates.filter((c) => !zips.has(c.zip)), ...[...carried.values()].flatMap((c) => c.candidates), ...[...layered.values()].flat()],
    notes,
  }
  return { result, index: build(result), withheld }
}

const KNOWN_LEVELS = new Set(['state', 'county'])

/** The rate in force on the date of each state and county authority, by `level|code` (the first listed where windows overlap). */
function knownLayerRates(loaded: FeedResult, isoDate: string): Map<string, number> {
  const rates = new Map<string, number>()
  for (const j of loaded.jurisdictions) {
    const key = `${j.level}|${j.code}`
    if (!KNOWN_LEVELS.has(j.level) || rates.has(key)) continue
    if ((j.from === null || j.from <= isoDate) && (j.to === null || j.to >= isoDate)) rates.set(key, j.rate)
  }
  return rates
}

function groupByZip(candidates: ZipCandidate[]): Map<string, ZipCandidate[]> {
  const byZip = new Map<string, ZipCandidate[]>()
  for (const c of candidates) {
    const list = byZip.get(c.zip)
    if (list) list.push(c)
    else byZip.set(c.zip, [c])
  }
  return byZip
}

/**
 * A ZIP's candidates cut to their state and county layers, when each such stack's rate on the
 * date is above zero and within the state's bounds; none otherwise. Shares are kept.
 */
function knownLayers(zipCandidates: ZipCandidate[], layerRate: Map<string, number>, descriptor: StateDescriptor): ZipCandidate[] {
  const [low, high] = descriptor.combinedBounds
  const candidates = zipCandidates.map((c): ZipCandidate => ({ ...c, placeFips: null, placeName: '', stack: c.stack.filter((ref) => KNOWN_LEVELS.has(ref.level)), basis: 'known_layers' }))
  const sound = candidates.every((c) => {
    const rates = c.stack.map((ref) => layerRate.get(`${ref.level}|${ref.code}`))
    if (rates.some((rate) => rate === undefined) || !c.stack.some((ref) => ref.level === 'state')) return false
    const combined = rates.reduce((sum: number, rate) => sum + rate!, 0)
    return combined > 0 && combined >= low && combined <= high
  })
  return sound ? candidates : []
}
