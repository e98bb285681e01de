// Arizona from DOR's TPT rate table (docs/data-sources.md#arizona), retail rows only.
//
// A county row (one of 15 3-letter codes: MAR, PMA, …) prints the state rate plus the county's; a city row
// (2-letter code: PX, TU, …) prints the city's own rate alone and names no county, so a city is
// bound to the Census place of its name anywhere in the state and answers state + the county of
// each of its parts + city. Counties are bound by name to their FIPS code. Every row keeps its dated
// window. Regions of neither shape (tribal and special regions) are listed as unplaced.
import type { Geography } from '../../../snapshot-contract/geography-model.ts'
import type { FeedResult, JurisdictionRef, PlaceStack, UnplacedJurisdiction } from '../../../snapshot-contract/model.ts'
import { formatRate } from '../../../snapshot-contract/rate-units.ts'
import { AZ_COUNTY_CODES, type AzRow, type AzTptFile } from './rate-file.ts'
import { leftOutOf } from '../set-aside.ts'
import { countiesRated } from '../set-aside-counties.ts'
import { datedJurisdictions, datedRowsEdition, earliestStart, latestRow } from '../dated-rows.ts'
import { countiesByMatchKey, countyCode, countyMatchKey, placeStacksNotes, placeStacksOf, withinZipCandidates } from '../candidate-weights.ts'
import { noCountyNotes, placeBoundCandidates, placeNamedIn, statePlacesByKey } from '../place-bound-candidates.ts'

const STATE = 'AZ'
const STATE_FIPS = '04'
/** The table prints percents (2.3 for 2.3%): a nonzero city rate below 0.1% is a fraction printed where the percent stands. */
const LEAST_CITY_RATE = 100

export type CompileAzInput = { file: AzTptFile; stateRate: number; geography: Geography; edition: string }

export function compileAzTpt({ file, stateRate, geography, edition }: CompileAzInput): FeedResult {
  const { fileName } = file
  const byRegion = new Map<string, AzRow[]>()
  for (const row of file.rows) byRegion.set(row.region, [...(byRegion.get(row.region) ?? []), row])
  const counties = countiesByMatchKey(geography, STATE)
  const byKey = statePlacesByKey(geography, STATE)
  const { list: jurisdictions, add } = datedJurisdictions(STATE, fileName)
  const unplaced: UnplacedJurisdiction[] = []
  const cityOf = new Map<string, { code: string; name: string }>()

  for (const [region, rows] of byRegion) {
    const { name } = rows[0]!
    if (AZ_COUNTY_CODES.has(region)) {
      const county = counties.get(countyMatchKey(name))
      if (!county) {
        for (const row of rows) file.setAside.add(`line ${row.line}`, `county region ${region} ${name} binds to no Arizona county of the geography`, row)
        continue
      }
      // a county row prints the state rate with the county's: one below it is no such total
      const below = rows.filter((r) => r.rate < stateRate)
      for (const row of below) file.setAside.add(`line ${row.line}`, `county region ${region} at ${formatRate(row.rate)} is below the ${formatRate(stateRate)} state rate it includes`, row, name)
      const total = rows.filter((r) => r.rate >= stateRate)
      // Kept by its FIPS code like every county; a TPT return names it by its region code.
      if (total.length) add('county', countyCode(county.fips), county.name, total, (r) => r.rate - stateRate, region)
    } else if (/^[A-Z]{2}$/.test(region)) {
      const fractions = rows.filter((r) => r.rate > 0 && r.rate < LEAST_CITY_RATE)
      for (const row of fractions) file.setAside.add(`line ${row.line}`, `city region ${region} at ${formatRate(row.rate)} is below any city rate (${formatRate(LEAST_CITY_RATE)}): a fraction where a percent is expected`, row)
      const percents = rows.filter((r) => !fractions.includes(r))
      if (percents.length === 0) continue
      const place = placeNamedIn(byKey, name, null)
      add('city', region, place?.name ?? name, percents, (r) => r.rate)
      if (place) cityOf.set(place.geoid, { code: region, name: place.name })
      else unplaced.push({ level: 'city', code: region, name, rate: latestRow(percents).rate, reason: `city region ${region} binds to no Census place named ${name} in Arizona` })
    } else {
      add('district', region, name, rows, (r) => r.rate)
      unplaced.push({ level: 'district', code: region, name, rate: latestRow(rows).rate, reason: `region ${region} is neither one of the 15 county codes nor a city (2 letters): a tribal or special region, whose area the file does not give` })
    }
  }
  const earliest = earliestStart(file)
  jurisdictions.push({ state: STATE, level: 'state', code: STATE_FIPS, name: 'Arizona', rate: stateRate, from: earliest, to: null, source: fileName })
  file.setAside.assertWithinShare(file.rows.length + file.setAside.count)
  // a county whose every retail row was set aside has no county layer: the state rate alone
  const ratedFips = new Set(jurisdictions.filter((j) => j.level === 'county').map((j) => `${STATE_FIPS}${j.code}`))
  const setAsideFips = file.setAside.namedLocalities().flatMap((name) => counties.get(countyMatchKey(name))?.fips ?? [])
  const rated = countiesRated({ fileName, geography, state: STATE, noun: 'Arizona counties', rated: ratedFips, setAside: setAsideFips })
  const countyRefs = (fips: string): JurisdictionRef[] => {
    const ref = rated.countyRef(fips)
    return ref ? [ref] : []
  }

  const stateRef: JurisdictionRef = { level: 'state', code: STATE_FIPS }
  const cityTail = (geoid: string) => {
    const city = cityOf.get(geoid)
    return city ? { name: city.name, refs: [{ level: 'city' as const, code: city.code }] } : null
  }
  const { candidates, usedPlaces, noCounty } = placeBoundCandidates({ geography, state: STATE, stateRef, countyTail: () => [], placeTail: (geoid) => cityTail(geoid), countyRef: rated.countyRef })
  const placeStacks: PlaceStack[] = []
  for (const [geoid, city] of cityOf) {
    const place = geography.places.get(geoid)!
    const unused = place.counties.map((c) => c.fips).filter((fips) => !usedPlaces.has(`${geoid}|${fips}`))
    if (unused.length === 0) continue
    placeStacks.push(...placeStacksOf(geography, { geoid, name: city.name, counties: unused }, (fips) => [stateRef, ...countyRefs(fips), ...cityTail(geoid)!.refs]))
  }
  const notes = [
    `AZ model: ${fileName}, retail (business code 017) rows: county rows less the ${formatRate(stateRate)} state rate they include, city rows as printed; cities bound to the Census place of their name`,
    ...placeStacksNotes(placeStacks),
    ...rated.notes,
  ]
  notes.push(...file.setAside.notes())
  notes.push(...noCountyNotes(STATE, noCounty))
  if (unplaced.length) notes.push(`${unplaced.length} regions could not be bound to ZIPs and are listed as unplaced`)
  return {
    jurisdictions,
    candidates: withinZipCandidates(geography, candidates, placeStacks),
    placeStacks,
    unplaced,
    ...datedRowsEdition(file, edition),
    notes,
    ...leftOutOf(file.setAside.leftOut(edition)),
  }
}
