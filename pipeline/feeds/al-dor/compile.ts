// Alabama from DOR's local rates file (docs/data-sources.md#alabama), general sales rows only. A
// locality code starting with 7 is a county locality, bound by the county its name names to its FIPS
// code; any other is a city, bound to the Census place of its name in the county its `County Code`
// names. Each answers its local-only rate over the state's 4% in every dated window the file gives.
//
// A county is not one row (publisher-evidence E4; county-localities.ts): each county locality
// applies in the zone its name says. The county's plain row (else its COUNTY-WIDE TAX row) is its
// county layer; every other locality is a layer of its own (district level) where it applies: the
// whole county, outside cities (UNINCORP AREAS: county land outside the places of rated cities),
// inside them (CL), inside one named city or all but it (CL TROY, EXC CL TROY). A locality whose area
// the Census geography does not give (PJ, CL 4 CITIES, EDUCATION, UNABATED, an unknown qualifier) is
// listed as unplaced, as is a city's police jurisdiction rate (`PJ=Y`, `PJ_Rate`) and a city no
// Census place bears the name of.
import type { Geography } from '../../../snapshot-contract/geography-model.ts'
import type { FeedResult, JurisdictionRef, UnplacedJurisdiction } from '../../../snapshot-contract/model.ts'
import { formatRate } from '../../../snapshot-contract/rate-units.ts'
import { isCountyLocalityCode as isCounty, type AlRateFile, type AlRow } from './rate-file.ts'
import { countyLocality, type CountyZone } from './county-localities.ts'
import { datedJurisdictions, datedRowsEdition, earliestStart, latestRow } from '../dated-rows.ts'
import { countiesByMatchKey, countyCode, countyMatchKey } from '../candidate-weights.ts'
import { placeBoundCandidates, placeBoundNotes, placeNamedIn, statePlacesByKey } from '../place-bound-candidates.ts'
import { leftOutOf } from '../set-aside.ts'
import { countiesRated } from '../set-aside-counties.ts'

const STATE = 'AL'
const STATE_FIPS = '01'

export type CompileAlInput = { file: AlRateFile; stateRate: number; geography: Geography; edition: string }

/** A county locality other than the county's layer: its ref and where it applies. */
type ZonedLayer = { ref: JurisdictionRef; zone: Exclude<CountyZone, { kind: 'not-placed' }>; cityGeoid: string | null }

export function compileAlRates({ file, stateRate, geography, edition }: CompileAlInput): FeedResult {
  const { fileName } = file
  if (!file.rows.some((r) => r.from <= edition)) throw new Error(`${fileName}: no general sales row is active on or before ${edition}: a file of rates not yet in force; held until then`)
  const byCode = new Map<string, AlRow[]>()
  for (const row of file.rows) byCode.set(row.code, [...(byCode.get(row.code) ?? []), row])
  const counties = countiesByMatchKey(geography, STATE)
  const byKey = statePlacesByKey(geography, STATE)
  const { list: jurisdictions, add } = datedJurisdictions(STATE, fileName)
  const unplaced: UnplacedJurisdiction[] = []
  const fipsOfCounty = new Map<string, string>()
  /** county FIPS → whether its county layer is rated, and the localities of its zones */
  const countyLayer = new Set<string>()
  const zoned = new Map<string, ZonedLayer[]>()
  const cityOf = new Map<string, { name: string; ref: JurisdictionRef }>()
  const qualifiers = new Map<string, number>()
  const localities = [...byCode].flatMap(([code, rows]) => {
    if (!isCounty(code)) return []
    const locality = countyLocality(rows[0]!.name)
    const county = locality && counties.get(countyMatchKey(locality.county))
    if (locality && county) return [{ code, rows, locality, county }]
    for (const row of rows) file.setAside.add(`line ${row.line}`, `county locality ${code} ${row.name} binds to no Alabama county of the geography`, row)
    return []
  })
  const withPlainRow = new Set(localities.filter((l) => l.locality.qualifier === '').map((l) => l.county.fips))
  for (const { code, rows, locality, county } of localities) {
    const { name } = rows[0]!
    fipsOfCounty.set(code, county.fips)
    qualifiers.set(locality.qualifier || '(plain)', (qualifiers.get(locality.qualifier || '(plain)') ?? 0) + 1)
    const { zone } = locality
    if (zone.kind === 'not-placed') {
      add('district', code, name, rows, (r) => r.rate)
      unplaced.push({ level: 'district', code, name, rate: latestRow(rows).rate, counties: [county.fips], ...until(rows), reason: `county locality ${code} ${name}: ${zone.why}` })
      continue
    }
    // the county layer: its plain row, else (none) its county-wide one; the first such code
    if (zone.kind === 'county' && !countyLayer.has(county.fips) && (locality.qualifier === '' || !withPlainRow.has(county.fips))) {
      countyLayer.add(county.fips)
      add('county', countyCode(county.fips), county.name, rows, (r) => r.rate)
      continue
    }
    add('district', code, name, rows, (r) => r.rate)
    const cityGeoid = zone.kind === 'city' || zone.kind === 'except-city' ? (placeNamedIn(byKey, zone.city, county.fips)?.geoid ?? null) : null
    if ((zone.kind === 'city' || zone.kind === 'except-city') && cityGeoid === null) {
      unplaced.push({ level: 'district', code, name, rate: latestRow(rows).rate, counties: [county.fips], ...until(rows), reason: `county locality ${code} ${name}: the city ${zone.city} binds to no Census place of that name in ${county.name} County` })
      continue
    }
    zoned.set(county.fips, [...(zoned.get(county.fips) ?? []), { ref: { level: 'district', code }, zone, cityGeoid }])
  }
  const rated = new Set(fipsOfCounty.values())
  // a city whose County Code is a county locality set aside still lies in that county
  for (const [code, name] of file.countyLocalities) {
    const locality = fipsOfCounty.has(code) ? null : countyLocality(name)
    const county = locality && counties.get(countyMatchKey(locality.county))
    if (county) fipsOfCounty.set(code, county.fips)
  }
  for (const [code, rows] of byCode) {
    if (isCounty(code)) continue
    const { name } = rows[0]!
    add('city', code, name, rows, (r) => r.rate)
    const countyFips = [...new Set(rows.map((r) => fipsOfCounty.get(r.countyCode)).filter((f): f is string => f !== undefined))]
    const places = countyFips.flatMap((fips) => {
      const place = placeNamedIn(byKey, name, fips)
      return place ? [{ place, fips }] : []
    })
    for (const { place, fips } of places) cityOf.set(`${place.geoid}|${fips}`, { name: place.name, ref: { level: 'city', code } })
    if (places.length === 0) unplaced.push({ level: 'city', code, name, rate: latestRow(rows).rate, ...(countyFips.length ? { counties: countyFips } : {}), ...until(rows), reason: `city locality ${code} binds to no Census place named ${name} in the county its County Code ${rows[0]!.countyCode} names` })
    const pj = rows.filter((r) => r.pjRate !== null)
    if (pj.length) unplaced.push({ level: 'district', code: `${code}-PJ`, name: `${name} police jurisdiction`, rate: latestRow(pj).pjRate!, ...(countyFips.length ? { counties: countyFips } : {}), reason: `police jurisdiction of ${name}: applies just outside its city limits, an area the Census places do not give` })
  }
  file.setAside.assertWithinShare(file.rows.length + file.setAside.count)
  // a county whose every locality was set aside has no county or zone layer: the state rate alone
  const setAsideFips = file.setAside.namedLocalities().flatMap((name) => {
    const locality = countyLocality(name)
    const fips = locality ? counties.get(countyMatchKey(locality.county))?.fips : undefined
    return fips ? [fips] : []
  })
  const { notes: stateAlone } = countiesRated({ fileName, geography, state: STATE, noun: 'Alabama counties', rated, setAside: setAsideFips })
  const earliest = earliestStart(file)
  jurisdictions.push({ state: STATE, level: 'state', code: STATE_FIPS, name: 'Alabama', rate: stateRate, from: earliest, to: null, source: fileName })
  const layersOf = (fips: string, geoid: string | null): JurisdictionRef[] =>
    (zoned.get(fips) ?? []).filter(({ zone, cityGeoid }) => appliesIn(zone, cityGeoid, geoid)).map((z) => z.ref)
  const { candidates, noCounty } = placeBoundCandidates({
    geography,
    state: STATE,
    stateRef: { level: 'state', code: STATE_FIPS },
    countyRef: (fips) => (countyLayer.has(fips) ? { level: 'county', code: countyCode(fips) } : null),
    countyTail: (fips) => layersOf(fips, null),
    placeTail: (geoid, fips) => {
      const city = cityOf.get(`${geoid}|${fips}`)
      return city ? { name: city.name, refs: [city.ref, ...layersOf(fips, geoid)] } : null
    },
  })
  const variants = [...qualifiers].sort(([a], [b]) => a.localeCompare(b)).map(([q, n]) => `${q} ${n}`).join(', ')
  const notes = [
    `AL model: ${fileName}, general sales (TaxType ST, Rate Type GENER) rows: state ${formatRate(stateRate)}, county localities by the zone their name says (${variants}), cities bound to the Census place of their name in their county`,
  ]
  const noLayer = [...rated].filter((fips) => !countyLayer.has(fips)).map((fips) => geography.counties.get(fips)!.name)
  if (noLayer.length) notes.push(`${noLayer.length} counties have no plain or county-wide locality, only localities of some zones: ${noLayer.slice(0, 5).join(', ')}`)
  notes.push(...stateAlone, ...file.setAside.notes())
  notes.push(...placeBoundNotes(STATE, 'localities and police jurisdictions', unplaced.length, noCounty))
  return {
    jurisdictions,
    candidates,
    unplaced,
    ...datedRowsEdition(file, edition),
    notes,
    ...leftOutOf(file.setAside.leftOut(edition)),
  }
}

/** Whether a zoned locality applies in a ZIP part: in the rated city `geoid`, or outside every rated city (null). */
function appliesIn(zone: ZonedLayer['zone'], cityGeoid: string | null, geoid: string | null): boolean {
  switch (zone.kind) {
    case 'county':
      return true
    case 'outside':
      return geoid === null
    case 'inside':
      return geoid !== null
    case 'city':
      return geoid === cityGeoid
    case 'except-city':
      return geoid !== cityGeoid
  }
}

/** The last day a locality is in force, when its latest row ends. */
const until = (rows: AlRow[]): { until?: string } => {
  const latest = latestRow(rows)
  return latest.to ? { until: latest.to } : {}
}
