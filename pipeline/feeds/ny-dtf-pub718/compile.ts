// New York from Publication 718 (docs/data-sources.md#new-york): each row is a total, the state's 4%
// and, where starred, the 3/8% MCTD tax included. A county row's local part is its county layer; a
// "(city)" row stands for its city's whole local rate inside the "except" county it is listed under
// (a ZIP part in the city has no county layer beside it); New York City is one row over five
// counties. Counties are bound by name to FIPS codes; a city to the Census place of its name in
// its county, so "Oneida (city)" under Madison is never Oneida County. Towns, villages and the
// cities Pub 718 does not list (Sherrill, Fulton) take their county's row. A county or city row's
// reporting code, which ST-100 names the row by, is kept as its filing code: the code of this
// edition, as codes change with rates. "New York State only" (0021) names no level's share of
// every sale but the sales only the state taxes, and the MCTD tax is inside each starred row's
// code: neither gets one.
import type { Geography } from '../../../snapshot-contract/geography-model.ts'
import type { FeedResult, JurisdictionRef } from '../../../snapshot-contract/model.ts'
import { formatRate } from '../../../snapshot-contract/rate-units.ts'
import { countiesByMatchKey, countyCode, countyMatchKey, JurisdictionTable, placeCode, placeStacksNotes, placeStacksOf, withinZipCandidates } from '../candidate-weights.ts'
import { noCountyNotes, placeBoundCandidates, placeNamedIn, statePlacesByKey } from '../place-bound-candidates.ts'
import type { Pub718, Pub718Row } from './pub718.ts'

const STATE = 'NY'
const STATE_FIPS = '36'
/** New York City's five counties: Bronx, Kings, New York, Queens, Richmond (GEO). */
export const NYC_COUNTIES = ['36005', '36047', '36061', '36081', '36085'] as const
const NYC_PLACE = '3651000'
/** Tax Law §1109: the MCTD tax every starred row includes. */
export const MCTD_RATE = 375

export type CompileNyInput = { pub718: Pub718; stateRate: number; geography: Geography }

export function compileNyPub718({ pub718, stateRate, geography }: CompileNyInput): FeedResult {
  const { fileName, effective, rows } = pub718
  const state = rows.find((row) => row.kind === 'state')!
  if (state.rate !== stateRate) throw new Error(`${fileName}: "${state.line}" gives the state rate as ${formatRate(state.rate)}, the rules table ${formatRate(stateRate)}`)
  const table = new JurisdictionTable({ state: STATE, from: effective, to: null, source: fileName })
  const stateRef = table.add('state', STATE_FIPS, 'New York', stateRate)
  const mctdRef = table.add('district', 'MCTD', 'Metropolitan Commuter Transportation District', MCTD_RATE)
  const local = (row: Pub718Row) => {
    const rate = row.rate - stateRate - (row.mctd ? MCTD_RATE : 0)
    if (rate < 0) throw new Error(`${fileName}: "${row.line}" is below the state rate${row.mctd ? ' and the MCTD tax it includes' : ''}`)
    return rate
  }
  const withMctd = (row: Pub718Row, ref: JurisdictionRef) => (row.mctd ? [ref, mctdRef] : [ref])

  const counties = countiesByMatchKey(geography, STATE)
  const nyc = new Set<string>(NYC_COUNTIES)
  const countyRows = new Map<string, { row: Pub718Row; refs: JurisdictionRef[] }>()
  const countyOf = (name: string, row: Pub718Row) => {
    const county = counties.get(countyMatchKey(name))
    if (!county || nyc.has(county.fips)) throw new Error(`${fileName}: "${row.line}": ${name} is no New York county outside New York City of the geography`)
    return county
  }
  for (const row of rows.filter((r) => r.kind === 'county' || r.kind === 'except')) {
    const county = countyOf(row.name, row)
    if (countyRows.has(county.fips)) throw new Error(`${fileName}: ${row.name} listed twice`)
    countyRows.set(county.fips, { row, refs: withMctd(row, table.add('county', countyCode(county.fips), county.name, local(row), row.code)) })
  }
  const missing = [...counties.values()].filter((c) => !nyc.has(c.fips) && !countyRows.has(c.fips)).map((c) => c.name)
  if (missing.length) throw new Error(`${fileName}: ${missing.length} New York counties have no row (${missing.slice(0, 5).join(', ')}): the publication was read incompletely`)

  const nycRow = rows.find((row) => row.kind === 'nyc')!
  const nycRefs = withMctd(nycRow, table.add('city', placeCode(NYC_PLACE), 'New York City', local(nycRow), nycRow.code))
  const byKey = statePlacesByKey(geography, STATE)
  const cityOf = new Map<string, { name: string; refs: JurisdictionRef[]; geoid: string; county: string }>()
  for (const row of rows.filter((r) => r.kind === 'city')) {
    const county = countyOf(row.county!, row)
    const place = placeNamedIn(byKey, row.name, county.fips)
    if (!place || place.kind !== 'incorporated') throw new Error(`${fileName}: "${row.line}": no incorporated place named ${row.name} in ${county.name} County in the geography`)
    cityOf.set(`${place.geoid}|${county.fips}`, { name: place.name, refs: withMctd(row, table.add('city', placeCode(place.geoid), place.name, local(row), row.code)), geoid: place.geoid, county: county.fips })
  }
  for (const fips of nyc) cityOf.set(`${NYC_PLACE}|${fips}`, { name: 'New York City', refs: nycRefs, geoid: NYC_PLACE, county: fips })

  const { candidates: bound, usedPlaces, noCounty } = placeBoundCandidates({
    geography,
    state: STATE,
    stateRef,
    // Inside a listed city the city row is the whole local rate; New York City's counties have no county layer of their own.
    countyRef: (fips, geoid) => (geoid !== null || nyc.has(fips) ? null : countyRows.get(fips)!.refs[0]!),
    countyTail: (fips) => (nyc.has(fips) ? nycRefs : countyRows.get(fips)!.refs.slice(1)),
    placeTail: (geoid, fips) => {
      const city = cityOf.get(`${geoid}|${fips}`)
      return city ? { name: city.name, refs: city.refs } : null
    },
  })
  const placeStacks = [...cityOf.values()]
    .filter((city) => city.geoid !== NYC_PLACE && !usedPlaces.has(`${city.geoid}|${city.county}`))
    .flatMap((city) => placeStacksOf(geography, { geoid: city.geoid, name: city.name, counties: [city.county] }, () => [stateRef, ...city.refs]))
  const candidates = withinZipCandidates(geography, bound, placeStacks)

  const notes = [
    `NY model: ${fileName}${pub718.label ? ` (${pub718.label})` : ''}, effective ${effective}: ${rows.length} rate rows (${countyRows.size} counties, ${cityOf.size - nyc.size} cities listed apart from their county, New York City over ${nyc.size} counties), ${pub718.crossReferences.length} cross-references; every total split as state ${formatRate(stateRate)} + local + MCTD ${formatRate(MCTD_RATE)} where starred`,
    'towns, villages and unlisted cities answer their county\'s row; Westchester ZIPs shared with Yonkers, Mount Vernon, New Rochelle or White Plains answer by their place shares (DTF: reporting codes, not ZIPs, identify a location)',
    ...placeStacksNotes(placeStacks),
    ...noCountyNotes(STATE, noCounty),
  ]
  return {
    jurisdictions: table.list(),
    candidates,
    ...(placeStacks.length ? { placeStacks } : {}),
    unplaced: [],
    edition: effective,
    effectiveThrough: effective,
    effectiveDateBasis: 'edition_only',
    rowsRead: rows.length + pub718.crossReferences.length,
    rowsParsed: rows.length,
    files: [],
    notes,
  }
}
