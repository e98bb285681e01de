// Missouri from DOR's rate chart (docs/data-sources.md#missouri). Each row's SalesTaxRate is the
// total a buyer pays there, the state's 4.225% included. A code's segments are Census FIPS codes:
// `00000-CCC-000` is county CCC outside any city (county layer: its total less the state rate),
// `PPPPP-CCC-000` city PPPPP in county CCC (city layer: its total less the county's), bound to the
// Census place PPPPP (or, failing that, the place of its name in the county). Codes with a special
// district segment (CIDs, TDDs, ambulance and fire districts) change the rate parcel by parcel and
// are listed as unplaced, never summed into a whole ZIP. A county whose unincorporated land lies
// wholly in overlays has no `-000` row: its county layer is the least of its unincorporated
// overlay totals, a lower bound disclosed as such. A county with no unincorporated row at all (the
// independent city of St. Louis) has no county layer.
import type { Geography } from '../../../snapshot-contract/geography-model.ts'
import type { FeedResult, JurisdictionRef, RateVaries, UnplacedJurisdiction } from '../../../snapshot-contract/model.ts'
import { formatRate } from '../../../snapshot-contract/rate-units.ts'
import { countyCode } from '../candidate-weights.ts'
import type { MoJurisdiction, MoRateChart } from './rate-chart.ts'
import { editionOnlyResult, totalsTable } from '../state-totals.ts'
import { leftOutOf } from '../set-aside.ts'
import { countiesRated } from '../set-aside-counties.ts'
import { boundCityTail, placeBoundCandidates, placeBoundNotes, placeNamedIn, statePlacesByKey } from '../place-bound-candidates.ts'

const STATE = 'MO'
const STATE_FIPS = '29'
const UNINCORPORATED = '00000'
const NO_DISTRICT = '000'
/** The county segment of a code `NNNNN-CCC-NNN`. */
const countyOfCode = (code: string) => code.slice(6, 9)

export type CompileMoInput = { chart: MoRateChart; stateRate: number; geography: Geography; edition: string }

export function compileMoRates({ chart, stateRate, geography, edition }: CompileMoInput): FeedResult {
  const { fileName } = chart
  const { table, stateRef } = totalsTable(fileName, { code: STATE, fips: STATE_FIPS, name: 'Missouri', rate: stateRate })
  const byCounty = new Map<string, MoJurisdiction[]>()
  for (const row of chart.rows) byCounty.set(row.county, [...(byCounty.get(row.county) ?? []), row])
  const byKey = statePlacesByKey(geography, STATE)
  const cityOf = new Map<string, { name: string; ref: JurisdictionRef }>()
  const unplaced: UnplacedJurisdiction[] = []
  const rateVaries: RateVaries[] = []
  // the codes of rows set aside: a county whose -000 row is among them has no county layer
  const setAsideCodes = chart.setAside.namedLocalities()
  const baseSetAside = new Set(setAsideCodes.filter((code) => code.startsWith(`${UNINCORPORATED}-`) && code.endsWith(`-${NO_DISTRICT}`)).map(countyOfCode))
  const ratedFips = new Set<string>()
  for (const [county, rows] of byCounty) {
    const fips = `${STATE_FIPS}${county}`
    const geoCounty = geography.counties.get(fips)
    if (!geoCounty) {
      for (const row of rows) chart.setAside.add(`row ${row.row}`, `county segment ${county} of ${row.code} (${row.name}) binds to no Missouri county of the geography`)
      continue
    }
    const base = rows.find((r) => r.city === UNINCORPORATED && r.district === NO_DISTRICT)
    // its -000 row set aside: no county layer (never the least of its overlays), its cities carry the whole local rate
    const baseLost = !base && baseSetAside.has(county)
    const unincorporated = baseLost ? [] : rows.filter((r) => r.city === UNINCORPORATED)
    // no unincorporated row at all: an independent city (St. Louis), whose city rows carry the whole local rate
    const countyTotal = base?.rate ?? (unincorporated.length ? Math.min(...unincorporated.map((r) => r.rate)) : stateRate)
    if (!baseLost) {
      table.add('county', countyCode(fips), geoCounty.name, countyTotal - stateRate)
      ratedFips.add(fips)
    }
    if (!base && unincorporated.length) {
      rateVaries.push({ level: 'county', code: countyCode(fips), name: geoCounty.name, kind: 'estimated', lower_bound: true, exact_source: fileName, basis: `${geoCounty.name} has no ${UNINCORPORATED}-${county}-000 row: all its unincorporated land lies in overlays, so the county layer is the least of their totals (${formatRate(countyTotal)})` })
    }
    const cityBase = new Map(rows.filter((r) => r.city !== UNINCORPORATED && r.district === NO_DISTRICT).map((r) => [r.city, r]))
    for (const row of cityBase.values()) {
      if (row.rate < countyTotal) {
        chart.setAside.add(`row ${row.row}`, `city ${row.code} (${row.name}) at ${formatRate(row.rate)} is below its county's ${formatRate(countyTotal)}`)
        continue
      }
      const ref = table.add('city', `${row.city}-${county}`, row.name, row.rate - countyTotal)
      const byFips = geography.places.get(`${STATE_FIPS}${row.city}`)
      const place = byFips?.counties.some((c) => c.fips === fips) ? byFips : placeNamedIn(byKey, row.name, fips)
      if (place) cityOf.set(`${place.geoid}|${fips}`, { name: place.name, ref })
      else unplaced.push({ level: 'city', code: ref.code, name: row.name, rate: row.rate - countyTotal, counties: [fips], reason: `${row.code} binds to no Census place ${STATE_FIPS}${row.city} nor any named ${row.name} in ${geoCounty.name}` })
    }
    for (const row of rows.filter((r) => r.district !== NO_DISTRICT)) {
      const under = cityBase.get(row.city)?.rate ?? countyTotal
      unplaced.push({ level: 'district', code: row.code, name: row.name, rate: Math.max(0, row.rate - under), counties: [fips], reason: `special district segment ${row.district}: an overlay (CID, TDD, ambulance or fire district) whose parcels the chart does not give` })
    }
  }
  chart.setAside.assertWithinShare(chart.rowsRead)
  // a county whose every row (or whose -000 row) was set aside has no county layer: the state rate alone outside its cities
  const setAsideFips = setAsideCodes.map((code) => `${STATE_FIPS}${countyOfCode(code)}`)
  const rated = countiesRated({ fileName, geography, state: STATE, noun: 'Missouri counties', rated: ratedFips, setAside: setAsideFips })
  const { candidates, noCounty } = placeBoundCandidates({
    geography,
    state: STATE,
    stateRef,
    countyRef: rated.countyRef,
    countyTail: () => [],
    placeTail: boundCityTail(cityOf),
  })
  const notes = [`MO model: ${fileName}, ${chart.rows.length} jurisdiction codes: totals less the ${formatRate(stateRate)} state rate, county outside cities, city in each county by Census place FIPS`]
  if (rateVaries.length) notes.push(`${rateVaries.length} counties without an unincorporated -000 row answer a lower bound outside cities: ${rateVaries.map((v) => v.name).join(', ')}`)
  notes.push(...rated.notes, ...chart.setAside.notes())
  notes.push(...placeBoundNotes(STATE, 'jurisdiction codes', unplaced.length, noCounty))
  return editionOnlyResult({ table, candidates, unplaced, rateVaries, edition, rowsRead: chart.rowsRead, rowsParsed: chart.rowsRead - chart.setAside.count, notes, ...leftOutOf(chart.setAside.leftOut()) })
}
