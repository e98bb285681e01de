// New Mexico from TRD's GRT rates and boundaries CSV (docs/data-sources.md#new-mexico). Each location
// prints one total, the 4.875% state portion included, and the file does not split the rest between
// county and municipality, so an answer is the state layer plus the location's local remainder (its
// total less the state portion) as one layer, never the state rate twice: outside municipalities the
// county's "Remainder of County" row at the county level; in a municipality its own row at the city
// level, with no county layer beside it (the county's increments are inside its total). A
// municipality is bound to the Census place of its name in its row's county; one that binds to none
// (or to a place another code already names at another rate), tribal locations (rated by who sells,
// in areas that are no Census place) and special districts printing less than the state portion are
// listed as unplaced. A county with no remainder row (Los Alamos, a city-county) is answered outside the
// places bound by the least total of its locations, a lower bound disclosed as such.
import type { Geography } from '../../../snapshot-contract/geography-model.ts'
import type { FeedResult, JurisdictionRef, RateVaries, UnplacedJurisdiction } from '../../../snapshot-contract/model.ts'
import { formatRate } from '../../../snapshot-contract/rate-units.ts'
import { countiesByMatchKey, countyCode, countyMatchKey } from '../candidate-weights.ts'
import { REMAINDER, type NmGrtFile, type NmLocation } from './rate-file.ts'
import { editionOnlyResult, totalsTable } from '../state-totals.ts'
import { leftOutOf } from '../set-aside.ts'
import { countiesRated } from '../set-aside-counties.ts'
import { boundCityTail, placeBoundCandidates, placeBoundNotes, placeNamedIn, statePlacesByKey } from '../place-bound-candidates.ts'

const STATE = 'NM'
const STATE_FIPS = '35'
/** "Town of Bernalillo", "Village of Corrales": the Census names the place without its kind. */
const KIND_OF_PLACE = /^(city|town|village) of\s+/i

export type CompileNmInput = { file: NmGrtFile; stateRate: number; geography: Geography; edition: string }

export function compileNmGrt({ file, stateRate, geography, edition }: CompileNmInput): FeedResult {
  const { fileName } = file
  const { table, stateRef } = totalsTable(fileName, { code: STATE, fips: STATE_FIPS, name: 'New Mexico', rate: stateRate })
  const counties = countiesByMatchKey(geography, STATE)
  const byCounty = new Map<string, NmLocation[]>()
  for (const location of file.locations) {
    const county = counties.get(countyMatchKey(location.county))
    if (!county) {
      file.setAside.add(`line ${location.line}`, `county ${JSON.stringify(location.county)} of ${location.code} (${location.name}) binds to no New Mexico county of the geography`)
      continue
    }
    byCounty.set(county.fips, [...(byCounty.get(county.fips) ?? []), location])
  }
  file.setAside.assertWithinShare(file.rowsRead)
  // the counties rows set aside name; those whose "Remainder of County" row is among them have no county layer
  const remainderLost = new Set<string>()
  const setAsideFips = file.setAside.namedLocalities().flatMap((locality) => {
    const remainder = REMAINDER.exec(locality)
    const fips = counties.get(countyMatchKey(remainder ? remainder[1]! : locality))?.fips
    if (fips && remainder) remainderLost.add(fips)
    return fips ? [fips] : []
  })
  const ratedFips = new Set<string>()
  const byKey = statePlacesByKey(geography, STATE)
  const cityOf = new Map<string, { name: string; ref: JurisdictionRef; location: NmLocation }>()
  const unplaced: UnplacedJurisdiction[] = []
  const rateVaries: RateVaries[] = []
  for (const [fips, locations] of byCounty) {
    const countyName = geography.counties.get(fips)!.name
    const remainders = locations.filter((l) => l.kind === 'remainder')
    if (remainders.length > 1) throw new Error(`${fileName}: ${countyName} has ${remainders.length} remainder rows (${remainders.map((r) => r.code).join(', ')}), not one`)
    const totals = locations.filter((l) => l.kind !== 'special')
    const remainder = remainders[0]?.rate ?? (totals.length ? Math.min(...totals.map((l) => l.rate)) : stateRate)
    // its remainder row set aside: no county layer outside its places (never the least of its totals, its municipalities' own)
    const remainderSetAside = !remainders.length && remainderLost.has(fips)
    if (!remainderSetAside) {
      table.add('county', countyCode(fips), countyName, remainder - stateRate)
      ratedFips.add(fips)
    }
    if (!remainders.length && !remainderSetAside) {
      rateVaries.push({ level: 'county', code: countyCode(fips), name: countyName, kind: 'estimated', lower_bound: true, exact_source: fileName, basis: `${countyName} has no "Remainder of County" row: outside the places bound, the least total of its locations (${formatRate(remainder)})` })
    }
    for (const location of locations) {
      const local = location.rate - stateRate
      if (location.kind === 'special') {
        unplaced.push({ level: 'district', code: location.code, name: location.name, rate: location.rate, counties: [fips], reason: `prints ${formatRate(location.rate)}, below the ${formatRate(stateRate)} state portion every location total includes: a special district whose figure is no location total, never summed into a ZIP` })
        continue
      }
      if (location.kind === 'tribal') {
        unplaced.push({ level: 'district', code: location.code, name: location.name, rate: local, counties: [fips], reason: `tribal location (a second code in locat_cd2): its rate depends on who sells, and its area is no Census place` })
        continue
      }
      if (location.kind !== 'municipality') continue
      const place = placeNamedIn(byKey, location.name.replace(KIND_OF_PLACE, ''), fips)
      const ref = table.add('city', location.code, location.name, local)
      if (!place) {
        unplaced.push({ level: 'city', code: location.code, name: location.name, rate: local, counties: [fips], reason: `${location.code} binds to no Census place named ${location.name} in ${countyName}` })
        continue
      }
      const key = `${place.geoid}|${fips}`
      const bound = cityOf.get(key)
      if (bound && bound.location.rate !== location.rate) {
        unplaced.push({ level: 'city', code: location.code, name: location.name, rate: local, counties: [fips], reason: `names ${place.name} in ${countyName} as ${bound.location.code} (${bound.location.name}) does, at ${formatRate(location.rate)} against ${formatRate(bound.location.rate)}: which parts each covers is in the boundaries, not the names` })
        continue
      }
      if (!bound) cityOf.set(key, { name: place.name, ref, location })
    }
  }
  const rated = countiesRated({ fileName, geography, state: STATE, noun: 'New Mexico counties', rated: ratedFips, setAside: setAsideFips })
  // in a municipality, its total holds the county's increments: no county layer beside its own
  const countyRef = (fips: string, geoid: string | null): JurisdictionRef | null => (geoid === null ? rated.countyRef(fips) : null)
  const { candidates, noCounty } = placeBoundCandidates({ geography, state: STATE, stateRef, countyTail: () => [], placeTail: boundCityTail(cityOf), countyRef })
  const rounded = file.locations.filter((l) => l.rounded).length
  const special = file.locations.filter((l) => l.kind === 'special').length
  const notes = [`NM model: ${fileName}, ${file.locations.length} location codes: each total is the ${formatRate(stateRate)} state portion plus one local layer (county and municipal increments together, as the file prints them), the "Remainder of County" rows outside municipalities, municipalities by Census place name in their county`]
  if (rounded) notes.push(`${rounded} location totals printed to 1/10000 of a percent (float noise past it dropped) were rounded half-up to the served 1e-5`)
  if (special) notes.push(`${special} special-district rows print a figure below the state portion: no location total, listed as unplaced`)
  notes.push(...rated.notes, ...file.setAside.notes())
  if (rateVaries.length) notes.push(`${rateVaries.length} counties without a "Remainder of County" row answer a lower bound outside their places: ${rateVaries.map((v) => v.name).join(', ')}`)
  notes.push(...placeBoundNotes(STATE, 'location codes', unplaced.length, noCounty))
  return editionOnlyResult({ table, candidates, unplaced, rateVaries, edition, rowsRead: file.rowsRead, rowsParsed: file.locations.length, notes, ...leftOutOf(file.setAside.leftOut()) })
}
