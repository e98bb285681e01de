// Alabama from DOR's local rates file (docs/data-sources.md#alabama), general sales rows only. A
// locality code starting with 7 is a county, bound by name to its FIPS code; any other is a city,
// bound to the Census place of its name in the county its `County Code` names. Each answers its
// local-only rate over the state's 4% in every dated window the file gives. A police jurisdiction
// rate (`PJ=Y`, `PJ_Rate`) applies just outside the city's limits, an area no Census geography
// gives: it is listed as unplaced, as is a city no Census place bears the name of.
import type { Geography } from '../../../snapshot-contract/geography-model.ts'
import type { FeedResult, JurisdictionRef, UnplacedJurisdiction } from '../../../snapshot-contract/model.ts'
import { formatRate } from '../../../snapshot-contract/rate-units.ts'
import type { AlRateFile, AlRow } from './rate-file.ts'
import { datedJurisdictions, datedRowsEdition, earliestStart, latestRow } from '../dated-rows.ts'
import { countiesByMatchKey, countyCode, countyMatchKey } from '../candidate-weights.ts'
import { placeBoundCandidates, placeBoundNotes, placeNamedIn, statePlacesByKey } from '../place-bound-candidates.ts'

const STATE = 'AL'
const STATE_FIPS = '01'
const isCounty = (code: string) => code.startsWith('7')

export type CompileAlInput = { file: AlRateFile; stateRate: number; geography: Geography; edition: string }

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
  const cityOf = new Map<string, { name: string; ref: JurisdictionRef }>()
  for (const [code, rows] of byCode) {
    if (!isCounty(code)) continue
    const name = rows[0]!.name
    const county = counties.get(countyMatchKey(name))
    if (!county) throw new Error(`${fileName} line ${rows[0]!.line}: county locality ${code} ${name} binds to no Alabama county of the geography`)
    fipsOfCounty.set(code, county.fips)
    add('county', countyCode(county.fips), county.name, rows, (r) => r.rate)
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
    if (places.length === 0) unplaced.push({ level: 'city', code, name, rate: latestRow(rows).rate, ...(countyFips.length ? { counties: countyFips } : {}), reason: `city locality ${code} binds to no Census place named ${name} in the county its County Code ${rows[0]!.countyCode} names` })
    const pj = rows.filter((r) => r.pjRate !== null)
    if (pj.length) unplaced.push({ level: 'district', code: `${code}-PJ`, name: `${name} police jurisdiction`, rate: latestRow(pj).pjRate!, ...(countyFips.length ? { counties: countyFips } : {}), reason: `police jurisdiction of ${name}: applies just outside its city limits, an area the Census places do not give` })
  }
  const rated = new Set(fipsOfCounty.values())
  const missing = [...counties.values()].filter((c) => !rated.has(c.fips)).map((c) => c.name)
  if (missing.length) throw new Error(`${fileName}: no general sales row for ${missing.length} Alabama counties (${missing.slice(0, 5).join(', ')})`)
  const earliest = earliestStart(file)
  jurisdictions.push({ state: STATE, level: 'state', code: STATE_FIPS, name: 'Alabama', rate: stateRate, from: earliest, to: null, source: fileName })
  const { candidates, noCounty } = placeBoundCandidates({
    geography,
    state: STATE,
    stateRef: { level: 'state', code: STATE_FIPS },
    countyTail: () => [],
    placeTail: (geoid, fips) => {
      const city = cityOf.get(`${geoid}|${fips}`)
      return city ? { name: city.name, refs: [city.ref] } : null
    },
  })
  const notes = [`AL model: ${fileName}, general sales (TaxType ST, Rate Type GENER) rows: state ${formatRate(stateRate)}, county and city local rates, cities bound to the Census place of their name in their county`]
  notes.push(...placeBoundNotes(STATE, 'localities and police jurisdictions', unplaced.length, noCounty))
  return {
    jurisdictions,
    candidates,
    unplaced,
    ...datedRowsEdition(file, edition),
    notes,
  }
}
