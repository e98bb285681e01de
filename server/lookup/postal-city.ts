// A location that is no place of its state but is the USPS name its ZIPs are mailed under
// ("Brooklyn, NY", "North Hollywood, CA", "Flushing, NY"): a fifth of ZIPs carry such a name
// (geography.md §5). The USPS name is not the taxing place, so the answer comes from what the
// ZIPs mailed under it resolve to: the taxing place (county and city of each ZIP's highest-weight
// candidate) most of them share. When they do not all share it, the answer says so and is `low`.
import type { ZipEntry } from '../../snapshot-contract/rate-index.ts'
import { placeMismatch, type Located } from './located.ts'
import { requireServed } from './lookup-errors.ts'
import { warning } from './lookup-warnings.ts'
import { factsOf, type SnapshotView } from './snapshot-facts.ts'

type TaxingPlace = { county: string; city: string; entries: ZipEntry[] }

/** The taxing place a ZIP's answer is for: county and city of its highest-weight candidate. */
function taxingPlaceOf(entry: ZipEntry): { key: string; county: string; city: string } {
  const { county, place } = entry.candidates[0]!
  const countyName = county?.name.toUpperCase() ?? ''
  const city = place?.name.toUpperCase() ?? ''
  return { key: `${county?.fips ?? ''}|${place?.geoid || city}`, county: countyName, city }
}

/**
 * The answer for a USPS city name of the state, or null when no ZIP of the state is mailed under
 * it: the lowest ZIP of the taxing place most of its street-address ZIPs share.
 */
export function locatePostalCity(view: SnapshotView, state: string, name: string, inputPlace: string): Located | null {
  const facts = factsOf(view)
  const indexes = facts.zipsMailedAs(state, name)
  if (indexes.length === 0) return null
  requireServed(facts, state)
  // Street-address ZIPs (ZCTAs) are bound to places by their location; a PO-box ZIP only by its
  // mailing name, which here names no place: they speak for the name when there are no others.
  const entries = indexes.map((i) => view.rates.entryAt(i))
  const streets = entries.filter((e) => e.zcta)
  const counted = streets.length > 0 ? streets : entries
  const groups = new Map<string, TaxingPlace>()
  for (const entry of counted) {
    const place = taxingPlaceOf(entry)
    const group = groups.get(place.key) ?? { county: place.county, city: place.city, entries: [] }
    group.entries.push(entry)
    groups.set(place.key, group)
  }
  const [main, ...others] = [...groups.values()].sort((a, b) => b.entries.length - a.entries.length) as [TaxingPlace, ...TaxingPlace[]]
  const entry = main.entries[0]!
  const where = (g: TaxingPlace) => (g.city ? `${g.city} (${g.county} county)` : `${g.county} county, no city tax`)
  const postalName = entry.city
  const message =
    `"${name}" is a USPS mailing name, not an incorporated place of ${state}: answered from the ${counted.length} ${streets.length > 0 ? 'street-address ' : ''}ZIP${counted.length > 1 ? 's' : ''} mailed as ${postalName}, ` +
    (others.length === 0
      ? `all of which resolve to ${where(main)}.`
      : `${main.entries.length} of which resolve${main.entries.length === 1 ? 's' : ''} to ${where(main)}; the others lie elsewhere (listed). Send the ZIP to be sure.`)
  const warnings = [
    warning('postal_city', message, {
      postal_city: postalName,
      zips: counted.length,
      others: others.map((g) => ({ county: g.county, city: g.city, zips: g.entries.map((e) => e.zip) })),
    }),
  ]
  const model = facts.placeModel(state)
  const mismatch = placeMismatch(inputPlace, entry.candidates[0]!, model)
  if (mismatch) warnings.push(mismatch)
  return {
    state,
    entry,
    choice: 0,
    chosenBy: 'weight',
    resolvedVia: 'postal_city',
    confidenceCap: others.length === 0 ? 'medium' : 'low',
    warnings,
    zip4: null,
    point: null,
  }
}
