// New Mexico from TRD's GRT rates and boundaries CSV (docs/data-sources.md#new-mexico). Each location
// prints one total, the 4.875% state portion included, and the file does not split the rest between
// county and municipality, so an answer is the state layer plus the location's local remainder (its
// total less the state portion) as one layer, never the state rate twice: outside municipalities the
// county's "Remainder of County" row at the county level; in a municipality its own row at the city
// level, with no county layer beside it (the county's increments are inside its total). A
// municipality is bound to the Census place of its name in its row's county; one that binds to none,
// and tribal locations (rated by who sells, in areas that are no Census place), are listed as
// unplaced. A county with no remainder row (Los Alamos, a city-county) is answered outside the
// places bound by the least total of its locations, a lower bound disclosed as such.
import type { Geography } from '../../../snapshot-contract/geography-model.ts'
import type { FeedResult, JurisdictionRef, RateVaries, UnplacedJurisdiction } from '../../../snapshot-contract/model.ts'
import { formatRate } from '../../../snapshot-contract/rate-units.ts'
import { countiesByMatchKey, countyCode, countyMatchKey } from '../candidate-weights.ts'
import type { NmGrtFile, NmLocation } from './rate-file.ts'
import { editionOnlyResult, totalsTable } from '../state-totals.ts'
import { boundCityTail, placeBoundCandidates, placeBoundNotes, placeNamedIn, statePlacesByKey } from '../place-bound-candidates.ts'

const STATE = 'NM'
const STATE_FIPS = '35'
/** "Town of Bernalillo", "Village of Corrales": the Census names the place without its kind. */
const KIND_OF_PLACE = /^(city|town|village) of\s+/i

export type CompileNmInput = { file: NmGrtFile; stateRate: number; geography: Geography; edition: string }

export function compileNmGrt({ file, stateRate, geography, edition }: CompileNmInput): FeedResult {
  const { fileName } = file
  const totals = file.locations.map((l) => ({ rate: l.rate, at: `line ${l.line}`, label: `${l.code} (${l.name})` }))
  const { table, stateRef } = totalsTable(fileName, { code: STATE, fips: STATE_FIPS, name: 'New Mexico', rate: stateRate }, totals)
  const counties = countiesByMatchKey(geography, STATE)
  const byCounty = new Map<string, NmLocation[]>()
  for (const location of file.locations) {
    const county = counties.get(countyMatchKey(location.county))
    if (!county) throw new Error(`${fileName} line ${location.line}: county ${JSON.stringify(location.county)} of ${location.code} (${location.name}) binds to no New Mexico county of the geography`)
    byCounty.set(county.fips, [...(byCounty.get(county.fips) ?? []), location])
  }
  const missing = [...counties.values()].filter((c) => !byCounty.has(c.fips)).map((c) => `${c.fips} ${c.name}`)
  if (missing.length) throw new Error(`${fileName}: ${missing.length} New Mexico counties of the geography have no location (${missing.slice(0, 5).join(', ')}): the file is incomplete`)
  const byKey = statePlacesByKey(geography, STATE)
  const cityOf = new Map<string, { name: string; ref: JurisdictionRef; location: NmLocation }>()
  const unplaced: UnplacedJurisdiction[] = []
  const rateVaries: RateVaries[] = []
  for (const [fips, locations] of byCounty) {
    const countyName = geography.counties.get(fips)!.name
    const remainders = locations.filter((l) => l.kind === 'remainder')
    if (remainders.length > 1) throw new Error(`${fileName}: ${countyName} has ${remainders.length} remainder rows (${remainders.map((r) => r.code).join(', ')}), not one`)
    const remainder = remainders[0]?.rate ?? Math.min(...locations.map((l) => l.rate))
    table.add('county', countyCode(fips), countyName, remainder - stateRate)
    if (!remainders.length) {
      rateVaries.push({ level: 'county', code: countyCode(fips), name: countyName, kind: 'estimated', lower_bound: true, exact_source: fileName, basis: `${countyName} has no "Remainder of County" row: outside the places bound, the least total of its locations (${formatRate(remainder)})` })
    }
    for (const location of locations) {
      const local = location.rate - stateRate
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
        throw new Error(`${fileName}: ${bound.location.code} (${bound.location.name}) and ${location.code} (${location.name}) both name ${place.name} in ${countyName}, at ${formatRate(bound.location.rate)} and ${formatRate(location.rate)}: which parts each covers is in the boundaries, not the names`)
      }
      if (!bound) cityOf.set(key, { name: place.name, ref, location })
    }
  }
  // in a municipality, its total holds the county's increments: no county layer beside its own
  const countyRef = (fips: string, geoid: string | null): JurisdictionRef | null => (geoid === null ? { level: 'county', code: countyCode(fips) } : null)
  const { candidates, noCounty } = placeBoundCandidates({ geography, state: STATE, stateRef, countyTail: () => [], placeTail: boundCityTail(cityOf), countyRef })
  const rounded = file.locations.filter((l) => l.rounded).length
  const notes = [`NM model: ${fileName}, ${file.locations.length} location codes: each total is the ${formatRate(stateRate)} state portion plus one local layer (county and municipal increments together, as the file prints them), the "Remainder of County" rows outside municipalities, municipalities by Census place name in their county`]
  if (rounded) notes.push(`${rounded} location totals printed to 1/10000 of a percent were rounded half-up to the served 1e-5`)
  if (rateVaries.length) notes.push(`${rateVaries.length} counties without a "Remainder of County" row answer a lower bound outside their places: ${rateVaries.map((v) => v.name).join(', ')}`)
  notes.push(...placeBoundNotes(STATE, 'location codes', unplaced.length, noCounty))
  return editionOnlyResult({ table, candidates, unplaced, rateVaries, edition, rowsRead: file.rowsRead, rowsParsed: file.locations.length, notes })
}
