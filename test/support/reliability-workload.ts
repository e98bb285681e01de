// Lookup request paths for the soak: ZIP, address, place and coordinate lookups spread evenly
// over every state of a snapshot, kept only when the server answers them 200 (a withheld ZIP or a
// point in no county is a correct 404, not load), and the rate a ZIP answer must carry, read
// straight from the snapshot's rates index.
import { PlaceIndex } from '../../snapshot-contract/place-index.ts'
import { RateIndex } from '../../snapshot-contract/rate-index.ts'
import { formatRate } from '../../snapshot-contract/rate-units.ts'
import { loadSnapshot } from '../../snapshot-contract/snapshot-store.ts'

export const LOOKUP_MODES = ['zip', 'address', 'place', 'coordinate'] as const
export type LookupMode = (typeof LOOKUP_MODES)[number]

export type LookupPath = { mode: LookupMode; path: string; state: string; zip: string }

const STREETS = ['Main St', 'Oak Ave', '1st St', 'Park Blvd', 'Washington St']
const titleCase = (text: string) => text.toLowerCase().replace(/\b[a-z]/g, (c) => c.toUpperCase())

/** Up to `perMode` paths of each mode, taken at even steps through the snapshot's ZIP entries. */
export async function lookupPaths(artifactsDir: string, snapshotId: string, perMode: number): Promise<LookupPath[]> {
  const loaded = await loadSnapshot(artifactsDir, snapshotId)
  const rates = new RateIndex(new Uint8Array(loaded.files['rates.bin']))
  const places = new PlaceIndex(new Uint8Array(loaded.files['places.bin']))
  const byMode: Record<LookupMode, LookupPath[]> = { zip: [], address: [], place: [], coordinate: [] }
  const step = Math.max(1, Math.floor(rates.zipEntryCount / perMode))
  const seenPlaces = new Set<string>()
  for (let i = 0; i < rates.zipEntryCount; i += step) {
    const entry = rates.entryAt(i)
    const { zip, state } = entry
    const st = state.toLowerCase()
    byMode.zip.push({ mode: 'zip', path: `/v1/tax/${st}?zip=${zip}`, state, zip })
    if (entry.lat !== null && entry.lng !== null) {
      byMode.coordinate.push({ mode: 'coordinate', path: `/v1/tax/${st}?lat=${entry.lat.toFixed(6)}&lng=${entry.lng.toFixed(6)}`, state, zip })
    }
    if (!entry.city) continue
    const city = titleCase(entry.city)
    const address = `${100 + (i % 9_800)} ${STREETS[i % STREETS.length]}, ${city}, ${state} ${zip}`
    byMode.address.push({ mode: 'address', path: `/v1/tax/${st}?address=${encodeURIComponent(address)}`, state, zip })
    const placeKey = `${entry.city}|${state}`
    if (!seenPlaces.has(placeKey) && places.find(entry.city, state).length > 0) {
      seenPlaces.add(placeKey)
      byMode.place.push({ mode: 'place', path: `/v1/tax/${st}?location=${encodeURIComponent(`${city}, ${state}`)}`, state, zip })
    }
  }
  return LOOKUP_MODES.flatMap((mode) => byMode[mode].slice(0, perMode))
}

/** Asks every path once (16 at a time) and keeps those answered 200, with their answers. */
export async function answeredPaths(url: string, key: string, paths: LookupPath[]): Promise<{ path: LookupPath; body: LookupAnswer }[]> {
  const kept: { path: LookupPath; body: LookupAnswer }[] = []
  let next = 0
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++]
      const response = await fetch(`${url}${path.path}`, { headers: { 'X-API-Key': key } })
      const body = (await response.json()) as LookupAnswer
      if (response.status === 200) kept.push({ path, body })
    }
  }
  await Promise.all(Array.from({ length: 16 }, worker))
  return kept
}

export type LookupAnswer = { rate: Record<string, string> & { combined_rate: string; state: string }; meta: Record<string, unknown> }

/** The combined rate a ZIP lookup must answer on `isoDate`: the highest-weight candidate of the ZIP's entry for the state. */
export function zipRateFromIndex(rates: RateIndex, zip: string, state: string, isoDate: string): string | null {
  const entry = rates.lookupZip(zip).find((e) => e.state === state)
  return entry && entry.candidates.length > 0 ? formatRate(rates.combinedRate(entry.candidates[0].stack, isoDate)) : null
}

/** The rates index of a published snapshot, verified against its manifest. */
export async function ratesOf(artifactsDir: string, snapshotId: string): Promise<RateIndex> {
  const loaded = await loadSnapshot(artifactsDir, snapshotId)
  return new RateIndex(new Uint8Array(loaded.files['rates.bin']))
}
