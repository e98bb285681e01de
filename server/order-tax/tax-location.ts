// Where an order is taxed: an address through the GET /v1/tax resolver (full shape), read as the
// resolver settles it, before any body is written: the rates by level as integers, the meta and
// the rows. A checkout asks again and again for the same few places, so each snapshot keeps the
// answers of the day for up to TAX_LOCATIONS_KEPT addresses, the least recently used dropped first
// (a hit moves an address up only once it is in the older half of what is kept, so most hits
// write nothing; an address asked within the last TAX_LOCATIONS_KEPT/2 new ones is always kept).
// A new snapshot or a new day starts afresh, and an address sent to an upstream geocoder (a
// street, with TAXATLAS_GEOCODER_URL set) is never kept, since the geocoder's answer may change.
import type { AnswerMeta } from '../lookup/lookup-answer.ts'
import { readLookupRequest } from '../lookup/lookup-request.ts'
import { rateRows } from '../lookup/rate-object.ts'
import type { RateParts } from '../lookup/rate-parts.ts'
import { resolveLookup, type LookupSources } from '../lookup/resolve-lookup.ts'
import type { SnapshotView } from '../lookup/snapshot-facts.ts'
import { derivedView } from '../snapshot/derived-views.ts'
import type { RateObject, RateRow } from '../lookup/tax-response.ts'
import type { OrderAddress } from './order-tax-request.ts'

export type TaxLocation = {
  /** the ZIP, state, county and city answered, with their rates as GET /v1/tax writes them */
  rate: RateObject
  meta: AnswerMeta
  /** the taxing authorities, as GET /v1/tax's full answer lists them */
  rows: RateRow[]
  countyFips: string | null
  /** the rates by level, 1e-5 units */
  parts: RateParts
}

export const TAX_LOCATIONS_KEPT = 10_000

/** A kept location, and the count of additions and moves of the day when it was last added or moved up. */
type Kept = { location: TaxLocation; at: number }
/** The locations of the snapshot's day (`date`), most recently used last. */
type KeptDay = { date: string; locations: Map<string, Kept>; moves: number }
const KEPT = derivedView('order tax locations', (_view: SnapshotView): { day: KeptDay | undefined } => ({ day: undefined }))

/** `today`: the UTC date of `now`, the date a lookup without as_of answers for. */
export async function taxLocation(address: OrderAddress & { zip5: string }, sources: LookupSources, now: number, today: string): Promise<TaxLocation> {
  const keep = !(address.street && sources.geocoder)
  const kept = KEPT.of(sources.snapshot)
  let day = kept.day
  if (keep && day?.date !== today) kept.day = day = { date: today, locations: new Map(), moves: 0 }
  const key = `${address.state}|${address.zip5}|${address.city ?? ''}|${address.street ?? ''}`
  const known = keep ? day!.locations.get(key) : undefined
  if (known) {
    // Most recently used last: the first entry is the one to drop.
    if (day!.moves - known.at > TAX_LOCATIONS_KEPT / 2) {
      day!.locations.delete(key)
      known.at = ++day!.moves
      day!.locations.set(key, known)
    }
    return known.location
  }
  const reading = readLookupRequest(address.state, { address: address.street ?? undefined, city: address.city ?? undefined, zip: address.zip5, mode: 'full' }, now)
  if (!reading.ok) throw reading.error
  const answer = await resolveLookup(reading.request, sources)
  const location: TaxLocation = {
    rate: answer.rate,
    meta: answer.meta,
    rows: rateRows(answer.authorities, answer.sourceKind),
    countyFips: answer.candidate.county?.fips ?? null,
    parts: answer.parts,
  }
  if (keep) {
    day!.locations.set(key, { location, at: ++day!.moves })
    if (day!.locations.size > TAX_LOCATIONS_KEPT) day!.locations.delete(day!.locations.keys().next().value!)
  }
  return location
}
