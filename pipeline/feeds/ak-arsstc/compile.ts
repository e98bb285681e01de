// Alaska from ARSSTC's rate sheet (docs/data-sources.md#alaska). Alaska levies no state sales tax;
// boroughs and cities do, and the sheet lists those that are members of the Commission. A borough
// (or census area) is bound to its county-equivalent FIPS by name ("City and Borough of Juneau" is
// the Census "Juneau City and Borough"), a city to the Census place of its name in that borough. A
// ZIP part answers the state's 0%, its borough's rate and, in a listed city, the city's; the borough
// layer is left out of a city whose row says the borough does not tax there (a total equal to the
// city's rate). A city no place bears the name of is listed as unplaced. Municipalities that are not
// members are not in the sheet: their ZIPs answer without their tax, as the notes say.
import type { Geography } from '../../../snapshot-contract/geography-model.ts'
import type { FeedResult, JurisdictionRef, UnplacedJurisdiction } from '../../../snapshot-contract/model.ts'
import { placeMatchKey } from '../../../snapshot-contract/place-names.ts'
import { formatRate } from '../../../snapshot-contract/rate-units.ts'
import type { AkRateSheet } from './rate-sheet.ts'
import { countiesByMatchKey, countyCode, placeCode } from '../candidate-weights.ts'
import { boundCityTail, placeBoundCandidates, placeNamedIn, statePlacesByKey } from '../place-bound-candidates.ts'
import { editionOnlyResult, totalsTable } from '../state-totals.ts'

const STATE = 'AK'
const STATE_FIPS = '02'

/** A borough's or census area's name without its kind, so the sheet's and the Census's spellings meet. */
export const akAreaKey = (name: string): string =>
  placeMatchKey(name.replace(/^(city and borough of|municipality of|borough of)\s+/i, '').replace(/\s+(city and borough|borough|census area|municipality)$/i, ''))

export type CompileAkInput = { sheet: AkRateSheet; stateRate: number; geography: Geography; edition: string }

export function compileAkRates({ sheet, stateRate, geography, edition }: CompileAkInput): FeedResult {
  const { fileName } = sheet
  const { table, stateRef } = totalsTable(fileName, { code: STATE, fips: STATE_FIPS, name: 'Alaska', rate: stateRate }, [])
  const areas = countiesByMatchKey(geography, STATE, akAreaKey)
  const byKey = statePlacesByKey(geography, STATE)
  const boroughRate = new Map<string, number>()
  const cityOf = new Map<string, { name: string; ref: JurisdictionRef; underBorough: boolean }>()
  const unplaced: UnplacedJurisdiction[] = []
  const areaOf = (row: AkRateSheet['rows'][number]) => {
    const area = areas.get(akAreaKey(row.borough))
    if (!area) throw new Error(`${fileName} row ${row.row}: ${JSON.stringify(row.borough)} binds to no Alaska borough or census area of the geography`)
    return area
  }
  for (const row of sheet.rows.filter((r) => r.city === null)) {
    const area = areaOf(row)
    table.add('county', countyCode(area.fips), area.name, row.boroughRate)
    boroughRate.set(area.fips, row.boroughRate)
  }
  for (const row of sheet.rows.filter((r) => r.city !== null)) {
    const area = areaOf(row)
    const city = row.city!
    const levied = boroughRate.get(area.fips)
    if (row.boroughRate !== 0 && row.boroughRate !== levied) {
      throw new Error(`${fileName} row ${row.row}: ${city} counts ${formatRate(row.boroughRate)} of ${area.name}'s tax, ${levied === undefined ? 'which has no row of its own' : `whose own row says ${formatRate(levied)}`}`)
    }
    const place = placeNamedIn(byKey, city, area.fips)
    if (!place) {
      unplaced.push({ level: 'city', code: placeMatchKey(city), name: city, rate: row.cityRate, counties: [area.fips], reason: `binds to no Census place named ${city} in ${area.name}` })
      continue
    }
    const ref = table.add('city', placeCode(place.geoid), city, row.cityRate)
    cityOf.set(`${place.geoid}|${area.fips}`, { name: place.name, ref, underBorough: row.boroughRate !== 0 })
  }
  const countyRef = (fips: string, geoid: string | null): JurisdictionRef | null => {
    if (!boroughRate.has(fips) || (geoid !== null && cityOf.get(`${geoid}|${fips}`)?.underBorough === false)) return null
    return { level: 'county', code: countyCode(fips) }
  }
  const { candidates, noCounty } = placeBoundCandidates({ geography, state: STATE, stateRef, countyTail: () => [], placeTail: boundCityTail(cityOf), countyRef })
  const unlisted = [...areas.values()].filter((a) => !boroughRate.has(a.fips) && !sheet.rows.some((r) => areas.get(akAreaKey(r.borough)) === a)).length
  const notes = [
    `AK model: ${fileName} as of ${sheet.asOf}, ${sheet.rows.length} rows: no state tax, each borough's rate at the county level, each city's at the city level by Census place name in its borough`,
    `ARSSTC lists its member boroughs and cities only: ${unlisted} boroughs and census areas of the geography have no row, and a municipality that is not a member answers without its tax`,
  ]
  if (unplaced.length) notes.push(`${unplaced.length} cities could not be bound to ZIPs and are listed as unplaced`)
  if (noCounty) notes.push(`${noCounty} ZIP candidates have no AK borough in geography: state rate only`)
  return editionOnlyResult({ table, candidates, unplaced, edition, rowsRead: sheet.rows.length, notes })
}
