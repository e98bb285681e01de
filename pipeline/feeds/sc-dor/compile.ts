// South Carolina from SCDOR's three publications (docs/data-sources.md#south-carolina): the Sales &
// Use Tax Index's county totals over their dated columns give each county's local layer (its total
// less the state's 6%) with its window; ST-500's totals on its "Effective" date must be the index's
// on that day; ST-575 gives each municipality's total per county part, and what it adds to the
// county's Unincorporated total in the same form is the municipality's own layer (Myrtle Beach's
// tourism development fee), bound to the Census place of its name in that county. A municipality in
// several counties has a row, and so a binding, per county part.
import type { Geography } from '../../../snapshot-contract/geography-model.ts'
import type { FeedResult, JurisdictionRate, JurisdictionRef, UnplacedJurisdiction } from '../../../snapshot-contract/model.ts'
import { formatRate } from '../../../snapshot-contract/rate-units.ts'
import { countiesByMatchKey, countyCode, countyMatchKey, placeCode } from '../candidate-weights.ts'
import { boundCityTail, noCountyNotes, placeBoundCandidates, placeNamedIn, statePlacesByKey } from '../place-bound-candidates.ts'
import type { DatedRate, ScIndex } from './index-table.ts'
import type { St500 } from './st500.ts'
import { SC_COUNTIES, type St575 } from './st575.ts'

const STATE = 'SC'
const STATE_FIPS = '45'

export type CompileScInput = { index: ScIndex; st500: St500; st575: St575; stateRate: number; geography: Geography }

const on = (rates: DatedRate[], date: string) => rates.find((r) => (r.from === null || r.from <= date) && (r.to === null || date <= r.to))

export function compileScRates({ index, st500, st575, stateRate, geography }: CompileScInput): FeedResult {
  const counties = countiesByMatchKey(geography, STATE)
  const jurisdictions: JurisdictionRate[] = [{ state: STATE, level: 'state', code: STATE_FIPS, name: 'South Carolina', rate: stateRate, from: null, to: null, source: `${index.fileName}, ${st575.fileName}` }]
  const fipsOf = new Map<string, string>()
  for (const row of index.counties) {
    const county = counties.get(countyMatchKey(row.name))
    if (!county) throw new Error(`${index.fileName}: ${row.name} binds to no South Carolina county of the geography`)
    fipsOf.set(countyMatchKey(row.name), county.fips)
    for (const window of row.rates) {
      if (window.rate < stateRate) throw new Error(`${index.fileName}: ${row.name} at ${formatRate(window.rate)} is below the state's ${formatRate(stateRate)}`)
      jurisdictions.push({ state: STATE, level: 'county', code: countyCode(county.fips), name: county.name, rate: window.rate - stateRate, from: window.from, to: window.to, source: `${index.fileName}: ${row.name} ${formatRate(window.rate)} total` })
    }
  }
  if (fipsOf.size !== SC_COUNTIES) throw new Error(`${index.fileName}: ${fipsOf.size} counties, not ${SC_COUNTIES}: the table was read incompletely`)

  // ST-500 on its date and the index on that day must agree, county by county.
  const disagree: string[] = []
  for (const row of index.counties) {
    const line = st500.lines.find((l) => l.text.toLowerCase().startsWith(`${row.name.toLowerCase()} `))
    const indexed = on(row.rates, st500.effective)
    if (!line) disagree.push(`${row.name}: no row`)
    else if (indexed && indexed.rate !== line.total) disagree.push(`${row.name}: ${formatRate(line.total)} against ${formatRate(indexed.rate)}`)
  }
  if (disagree.length) throw new Error(`${st500.fileName} (effective ${st500.effective}) and ${index.fileName} disagree on ${disagree.length} count${disagree.length > 1 ? 'ies' : 'y'}: ${disagree.slice(0, 5).join('; ')}`)

  const unincorporated = new Map<string, number>()
  for (const row of st575.rows.filter((r) => /^unincorporated$/i.test(r.municipality))) {
    const fips = fipsOf.get(countyMatchKey(row.county))
    if (!fips) throw new Error(`${st575.fileName}: Unincorporated ${row.county}: no such county in ${index.fileName}`)
    unincorporated.set(fips, row.total)
  }
  const byKey = statePlacesByKey(geography, STATE)
  const cityOf = new Map<string, { name: string; ref: JurisdictionRef }>()
  const unplaced: UnplacedJurisdiction[] = []
  const notes: string[] = []
  let municipalRows = 0
  for (const row of st575.rows.filter((r) => !/^unincorporated$/i.test(r.municipality))) {
    municipalRows++
    const fips = fipsOf.get(countyMatchKey(row.county))
    if (!fips) throw new Error(`${st575.fileName}: ${row.municipality} in ${row.county}: no such county in ${index.fileName}`)
    const increment = row.total - unincorporated.get(fips)!
    if (increment < 0) throw new Error(`${st575.fileName}: ${row.municipality} (${row.county}) at ${formatRate(row.total)} is below its county's Unincorporated ${formatRate(unincorporated.get(fips)!)}`)
    if (increment === 0) continue
    const place = placeNamedIn(byKey, row.municipality, fips)
    const code = place ? `${placeCode(place.geoid)}-${countyCode(fips)}` : `${row.municipality}-${countyCode(fips)}`
    const source = `${st575.fileName}: ${row.multiCounty ? '*' : ''}${row.municipality} (${row.county}) ${formatRate(row.total)} total, ${formatRate(increment)} above the county's Unincorporated row${row.taxes ? ` [${row.taxes}]` : ''}`
    if (!place) {
      unplaced.push({ level: 'city', code, name: row.municipality, rate: increment, counties: [fips], reason: `no Census place named ${row.municipality} in ${row.county} County` })
      continue
    }
    jurisdictions.push({ state: STATE, level: 'city', code, name: row.municipality, rate: increment, from: null, to: null, source })
    cityOf.set(`${place.geoid}|${fips}`, { name: place.name, ref: { level: 'city', code } })
  }
  if (index.myrtleBeach) {
    const current = st575.rows.find((r) => /^myrtle beach$/i.test(r.municipality))
    const indexed = st575.revision ? on(index.myrtleBeach.rates, st575.revision) : undefined
    if (current && indexed && current.total !== indexed.rate) throw new Error(`${index.fileName}'s "${index.myrtleBeach.name}" line (${formatRate(indexed.rate)}) and ${st575.fileName}'s Myrtle Beach row (${formatRate(current.total)}) disagree`)
  }
  for (const [fips, total] of unincorporated) {
    const name = geography.counties.get(fips)!.name
    const indexed = st575.revision ? on(index.counties.find((c) => fipsOf.get(countyMatchKey(c.name)) === fips)!.rates, st575.revision) : undefined
    if (indexed && indexed.rate !== total) notes.push(`${st575.fileName} (Rev. ${st575.revision}) gives ${name} Unincorporated ${formatRate(total)}, ${index.fileName} ${formatRate(indexed.rate)} on that day: the municipal increments are read against the form's own row`)
  }

  const stateRef = { level: 'state' as const, code: STATE_FIPS }
  const { candidates, noCounty } = placeBoundCandidates({
    geography,
    state: STATE,
    stateRef,
    countyTail: () => [],
    placeTail: boundCityTail(cityOf),
  })
  // Dates before a county's first dated column are not answered from these files.
  const firstDays = index.counties.map((row) => (row.rates.some((r) => r.from === null) ? null : row.rates.map((r) => r.from!).sort()[0]!))
  const coverageFrom = firstDays.includes(null) ? undefined : (firstDays as string[]).sort().at(-1)
  const starts = jurisdictions.map((j) => j.from).filter((from): from is string => from !== null).sort()
  const latest = starts.at(-1) ?? st500.effective
  notes.unshift(
    `SC model: ${index.fileName} (${index.counties.length} counties over ${index.counties[0]?.rates.length ?? 0} dated column(s)), ${st500.fileName} (effective ${st500.effective}, agreeing with the index on that day), ${st575.fileName}${st575.revision ? ` (Rev. ${st575.revision})` : ''}: ${municipalRows} municipal rows by county part, ${cityOf.size} above their county's total; the Catawba Reservation's tribal tax and locally collected taxes are not on ST-500 and are not modelled`,
  )
  notes.push(...noCountyNotes(STATE, noCounty))
  if (unplaced.length) notes.push(`${unplaced.length} municipalities above their county's total bind to no Census place and are listed as unplaced`)
  return {
    jurisdictions,
    candidates,
    unplaced,
    ...(coverageFrom ? { coverageFrom } : {}),
    edition: st500.effective,
    effectiveThrough: latest > st500.effective ? latest : st500.effective,
    effectiveDateBasis: 'publisher_effective_date',
    rowsRead: index.counties.length + st500.lines.length + st575.rows.length,
    rowsParsed: index.counties.length + st575.rows.length,
    files: [],
    notes,
  }
}
