// Texas from the Comptroller's taxrates.txt (docs/data-sources.md#texas), bound to ZIPs by rule.
//
// The file is keyed by taxing area, not by ZIP. Counties are bound by name to their FIPS code;
// a city's Comptroller code is no FIPS code, so a city is bound to the Census place of the same
// name in its county. A ZIP part then answers, through placeBoundCandidates, the stack of the city
// it is bound to (shares where the ZIP spans places), or its county's outside any rated city.
//
// Layers keep their identity by code family: state, county (its FIPS code, at the county code's
// rate), city (its Comptroller code), transit and special-purpose districts (district level, their
// codes). A transit or district layer that the file lists on only some of a part's areas covers
// only part of it, and which ZIPs the file does not say: it is disclosed as unplaced, never summed
// in or dropped. A `City/County Co` area whose county rate is n/a or 0 (Austin/Hays Co) answers
// without the county's tax, and the county's own rate is never read from such a row. A county that
// levies nothing prints only its name (`Rusk ⇥ n/a ⇥ 0`): its areas are placed by that name. An
// area named by a district code where a city's stands (publisher-evidence E1) covers a part of its
// county the file does not give: its districts are disclosed as unplaced. Rows the reader set aside
// are named in the notes and left out, every answer saying so.
import type { GeoPlace, Geography } from '../../../snapshot-contract/geography-model.ts'
import type { FeedResult, JurisdictionRef, PlaceStack, UnplacedJurisdiction } from '../../../snapshot-contract/model.ts'
import { formatRate } from '../../../snapshot-contract/rate-units.ts'
import { countiesByMatchKey, countyCode, countyMatchKey, JurisdictionTable, placeStacksNotes, placeStacksOf, withinZipCandidates } from '../candidate-weights.ts'
import { noCountyNotes, placeBoundCandidates, placeNamedIn, statePlacesByKey } from '../place-bound-candidates.ts'
import type { TxArea, TxRateFile, TxTriple } from './rate-file.ts'
import { leftOutOf } from '../set-aside.ts'

const STATE = 'TX'
const STATE_FIPS = '48'
const NOTES_LISTED = 5

export type CompileTxInput = {
  file: TxRateFile
  /** the statewide rate of the rules table (6.25% = 6250): the control record must print the same */
  stateRate: number
  geography: Geography
}

/** The areas of one city in one county, or of one county outside its cities (city null). */
type Part = { fips: string; city: TxTriple | null; place: GeoPlace | null; areas: TxArea[] }

/** `Austin/Hays Co` → city Austin, county Hays. */
const combinedName = (name: string): { city: string; county: string | null } => {
  const match = /^(.+?)\s*\/\s*(.+?)(?:\s+(?:co\.?|county))?$/i.exec(name)
  return match ? { city: match[1]!, county: match[2]! } : { city: name, county: null }
}
const txCountyKey = (name: string) => countyMatchKey(name.replace(/\s+co\.?$/i, ''))

export function compileTxComptroller({ file, stateRate, geography }: CompileTxInput): FeedResult {
  const { fileName } = file
  if (file.stateRate !== stateRate) throw new Error(`${fileName}: control record prints state rate ${formatRate(file.stateRate)}, the rules table says ${formatRate(stateRate)}`)
  const table = new JurisdictionTable({ state: STATE, from: file.effectiveFrom, to: null, source: fileName })
  const notes: string[] = [
    `TX model: ${fileName} (${file.title || file.quarter}, control month ${file.month}) read as ${file.areas.length} taxing areas after ${file.filingRows} filing-due-date rows; every rate in force from ${file.effectiveFrom}. Cities are bound to the Census place of the same name in their county, counties by name`,
  ]
  const counties = countiesByMatchKey(geography, STATE, txCountyKey)
  const byKey = statePlacesByKey(geography, STATE)

  // The county code of each FIPS, and its rate from the areas that print one (never 0 or n/a).
  const countyCodeOf = new Map<string, string>()
  const countyRate = new Map<string, number>()
  const parts = new Map<string, Part>()
  const unbound: string[] = []
  let districtAreas = 0
  const unplaced = new Map<string, UnplacedJurisdiction>()
  const disclose = (triple: TxTriple, reason: string, fips: string | null) => {
    const code = levelCode(triple)
    const known = unplaced.get(`${code.level}|${code.code}`)
    if (known) {
      if (fips && known.counties && !known.counties.includes(fips)) known.counties.push(fips)
      return
    }
    unplaced.set(`${code.level}|${code.code}`, { ...code, name: triple.name, rate: triple.rate ?? 0, reason, ...(fips ? { counties: [fips] } : {}) })
  }

  for (const area of file.areas) {
    const countyName = area.countyName ?? (area.city ? combinedName(area.city.name).county : null)
    const county = countyName ? counties.get(txCountyKey(countyName)) : undefined
    if (!county) {
      unbound.push(`line ${area.line}: county ${countyName ?? '(none named)'}`)
      for (const triple of [area.city, area.county, ...area.districts]) if (triple) disclose(triple, `its area (line ${area.line}) names county ${countyName ?? '(none)'}, which the geography does not hold`, null)
      continue
    }
    if (area.county) {
      const known = countyCodeOf.get(county.fips)
      if (known && known !== area.county.code) throw new Error(`${fileName} line ${area.line}: county ${county.name} printed with code ${area.county.code}, elsewhere ${known}`)
      countyCodeOf.set(county.fips, area.county.code)
      if (area.county.rate) {
        const rate = countyRate.get(county.fips)
        if (rate !== undefined && rate !== area.county.rate) throw new Error(`${fileName} line ${area.line}: county ${area.county.code} ${county.name} at ${formatRate(area.county.rate)}, elsewhere at ${formatRate(rate)}`)
        countyRate.set(county.fips, area.county.rate)
      }
    }
    // An area named by a district code where a city's stands (E1): which part of the county it covers
    // the file does not say, so its districts are disclosed, never summed into a ZIP; its county rate is read.
    if (area.areaDistrict) {
      for (const district of area.districts) disclose(district, `its area (line ${area.line}, ${area.areaDistrict.name}) is named by district code ${area.areaDistrict.code} where a city's stands: which part of ${county.name} County it covers the file does not say`, county.fips)
      districtAreas++
      continue
    }
    let place: GeoPlace | null = null
    if (area.city) {
      place = placeNamedIn(byKey, combinedName(area.city.name).city, county.fips) ?? null
      if (!place) {
        for (const triple of [area.city, ...area.districts]) disclose(triple, `city ${area.city.name} (${area.city.code}) binds to no Census place of that name in ${county.name} County`, county.fips)
        continue
      }
    }
    const key = place ? `${place.geoid}|${county.fips}` : `|${county.fips}`
    const part = parts.get(key) ?? { fips: county.fips, city: area.city, place, areas: [] }
    if (part.city && area.city && part.city.code !== area.city.code) {
      throw new Error(`${fileName} line ${area.line}: city codes ${part.city.code} and ${area.city.code} both bind to Census place ${place!.geoid} (${place!.name}) in ${county.name} County`)
    }
    part.areas.push(area)
    parts.set(key, part)
  }
  notes.push(...file.setAside.notes())
  if (districtAreas) notes.push(`${districtAreas} area(s) are named by a special-purpose or assistance district code in the city fields (5…/6…): their districts are listed as unplaced`)
  if (unbound.length) notes.push(`${unbound.length} area(s) name a county the geography does not hold; their taxes are unplaced: ${unbound.slice(0, NOTES_LISTED).join('; ')}`)

  const stateRef = table.add('state', STATE_FIPS, 'Texas', stateRate)
  // Kept by its FIPS code like every county; a Texas return names it by its Comptroller code.
  for (const county of counties.values()) table.add('county', countyCode(county.fips), county.name, countyRate.get(county.fips) ?? 0, countyCodeOf.get(county.fips))

  // What a part carries: the county's tax where every area of it prints the rate, and the layers every area lists.
  const countyApplies = (part: Part | undefined, fips: string) =>
    part ? part.areas.every((a) => (a.county?.rate ?? 0) > 0) : part === undefined && countyRate.has(fips)
  const countyRefOf = (fips: string, part: Part | undefined): JurisdictionRef => {
    const own: JurisdictionRef = { level: 'county', code: countyCode(fips) }
    if (!countyRate.has(fips) || countyApplies(part, fips)) return own
    const name = geography.counties.get(fips)!.name
    return table.add('county', `${countyCode(fips)}:none`, `${name} County (its tax not in force here)`, 0)
  }
  const tails = new Map<string, JurisdictionRef[]>()
  for (const [key, part] of parts) {
    const refs: JurisdictionRef[] = []
    if (part.city) refs.push(table.add('city', part.city.code, part.place!.name, part.city.rate ?? 0))
    const listed = new Map(part.areas.flatMap((a) => a.districts).map((d) => [d.code, d]))
    const where = part.place ? `${part.place.name} in ${geography.counties.get(part.fips)!.name} County` : `${geography.counties.get(part.fips)!.name} County outside its cities`
    for (const district of listed.values()) {
      const ref = table.add('district', district.code, district.name, district.rate ?? 0)
      if (part.areas.every((a) => a.districts.some((d) => d.code === district.code))) refs.push(ref)
      else disclose(district, `listed for only some of the areas of ${where}: which ZIPs it covers the file does not say`, part.fips)
    }
    tails.set(key, refs)
  }

  const { candidates, usedPlaces, noCounty, unlistedPlace } = placeBoundCandidates({
    geography,
    state: STATE,
    stateRef,
    countyRef: (fips, geoid) => countyRefOf(fips, parts.get(`${geoid ?? ''}|${fips}`)),
    countyTail: (fips) => tails.get(`|${fips}`) ?? [],
    placeTail: (geoid, fips) => {
      const refs = tails.get(`${geoid}|${fips}`)
      return refs ? { name: geography.places.get(geoid)!.name, refs } : null
    },
  })

  // A city part no ZIP answers keeps its stack for lookups by name or point; its taxes stay unplaced for ZIP answers.
  const placeStacks: PlaceStack[] = []
  for (const [key, part] of parts) {
    if (!part.place || usedPlaces.has(key)) continue
    const stack = [stateRef, countyRefOf(part.fips, part), ...tails.get(key)!]
    placeStacks.push(...placeStacksOf(geography, { geoid: part.place.geoid, name: part.place.name, counties: [part.fips] }, () => stack))
    disclose(part.city!, `bound to Census place ${part.place.geoid}, but no ZIP of county ${part.fips} is bound to it`, part.fips)
  }
  notes.push(...placeStacksNotes(placeStacks))
  notes.push(...noCountyNotes(STATE, noCounty))
  if (unlistedPlace) notes.push(`${unlistedPlace} ZIP-county parts are bound to a place the file does not rate: answered as outside any city`)
  if (unplaced.size) notes.push(`${unplaced.size} taxes could not be bound to ZIPs and are listed as unplaced`)

  return {
    jurisdictions: table.list(),
    candidates: withinZipCandidates(geography, candidates, placeStacks),
    placeStacks,
    unplaced: [...unplaced.values()],
    edition: file.quarter,
    effectiveThrough: file.effectiveFrom,
    effectiveDateBasis: 'edition_only',
    rowsRead: file.rowsRead,
    rowsParsed: file.areas.length,
    files: [],
    notes,
    ...leftOutOf(file.setAside.leftOut()),
  }
}

const levelCode = (triple: TxTriple): { level: UnplacedJurisdiction['level']; code: string } =>
  triple.layer === 'city' ? { level: 'city', code: triple.code } : triple.layer === 'county' ? { level: 'county', code: triple.code } : { level: 'district', code: triple.code }
