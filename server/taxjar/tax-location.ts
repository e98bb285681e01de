// Where an order is taxed: an address through the GET /v1/tax resolver (full shape), reduced to
// what order tax reads. A checkout asks again and again for the same few places, so each
// snapshot keeps the answers of the day for its most recent TAX_LOCATIONS_KEPT addresses; a new
// snapshot or a new day starts afresh, and an address sent to an upstream geocoder (a street, with
// TAXATLAS_GEOCODER_URL set) is never kept, since the geocoder's answer may change.
import { readLookupRequest } from '../lookup/lookup-request.ts'
import type { LookupSources } from '../lookup/resolve-lookup.ts'
import type { SnapshotView } from '../lookup/snapshot-facts.ts'
import type { Billing, FullLookupBody } from '../lookup/tax-response.ts'
import { fullLookup } from '../portability/rates-lookup.ts'
import type { OrderAddress } from './order-tax-request.ts'

export type TaxLocation = Pick<FullLookupBody, 'rate' | 'meta' | 'rows'> & { countyFips: string | null }

export const TAX_LOCATIONS_KEPT = 10_000

const kept = new WeakMap<SnapshotView, { date: string; locations: Map<string, TaxLocation> }>()

/** `today`: the UTC date of `now`, the date a lookup without as_of answers for. */
export async function taxLocation(address: OrderAddress & { zip5: string }, sources: LookupSources, billing: () => Billing, now: number, today: string): Promise<TaxLocation> {
  const keep = !(address.street && sources.geocoder)
  let day = kept.get(sources.snapshot)
  if (keep && day?.date !== today) kept.set(sources.snapshot, (day = { date: today, locations: new Map() }))
  const key = `${address.state}|${address.zip5}|${address.city ?? ''}|${address.street ?? ''}`
  const known = keep ? day!.locations.get(key) : undefined
  if (known) {
    // Most recently used last: the first entry is the one to drop.
    day!.locations.delete(key)
    day!.locations.set(key, known)
    return known
  }
  const reading = readLookupRequest(address.state, { address: address.street ?? undefined, city: address.city ?? undefined, zip: address.zip5, mode: 'full' }, now)
  if (!reading.ok) throw reading.error
  const answer = await fullLookup(reading.request, sources, billing)
  const location: TaxLocation = { rate: answer.rate, meta: answer.meta, rows: answer.rows, countyFips: answer.resolved_place.county?.fips ?? null }
  if (keep) {
    day!.locations.set(key, location)
    if (day!.locations.size > TAX_LOCATIONS_KEPT) day!.locations.delete(day!.locations.keys().next().value!)
  }
  return location
}
