// Florida from DOR's discretionary sales surtax rates (docs/data-sources.md#florida): one surtax per
// county and no city sales tax, so each county is bound by name to its FIPS code and every ZIP part
// answers its county's stack (state + county surtax), weighted by the ZIP's county shares. A county
// whose row was set aside answers the state rate alone, its surtax counted as left out.
import type { Geography } from '../../../snapshot-contract/geography-model.ts'
import type { FeedResult } from '../../../snapshot-contract/model.ts'
import { countiesByMatchKey, countyCode, countyMatchKey, JurisdictionTable } from '../candidate-weights.ts'
import type { FlSurtaxWorkbook } from './workbook.ts'
import { noCountyNotes, placeBoundCandidates } from '../place-bound-candidates.ts'
import { leftOutOf } from '../set-aside.ts'
import { countiesRated } from '../set-aside-counties.ts'

const STATE = 'FL'
const STATE_FIPS = '12'

export type CompileFlInput = { workbook: FlSurtaxWorkbook; stateRate: number; geography: Geography }

export function compileFlSurtax({ workbook, stateRate, geography }: CompileFlInput): FeedResult {
  const { fileName, asOf, setAside } = workbook
  const rowsRead = workbook.rows.length + setAside.count
  const counties = countiesByMatchKey(geography, STATE)
  const rateOf = new Map<string, number>()
  for (const row of workbook.rows) {
    const county = counties.get(countyMatchKey(row.county))
    if (!county) {
      setAside.add(`row ${row.row}`, `${row.county} binds to no Florida county of the geography`)
      continue
    }
    if (rateOf.has(county.fips)) throw new Error(`${fileName} row ${row.row}: ${row.county} listed twice`)
    rateOf.set(county.fips, row.rate)
  }
  setAside.assertWithinShare(rowsRead)
  const setAsideFips = setAside.namedLocalities().flatMap((name) => counties.get(countyMatchKey(name))?.fips ?? [])
  // a county whose row was set aside has no surtax layer: the state rate alone
  const rated = countiesRated({ fileName, geography, state: STATE, noun: 'Florida counties', rated: rateOf, setAside: setAsideFips })

  const table = new JurisdictionTable({ state: STATE, from: asOf, to: null, source: fileName })
  const stateRef = table.add('state', STATE_FIPS, 'Florida', stateRate)
  for (const [fips, rate] of rateOf) table.add('county', countyCode(fips), geography.counties.get(fips)!.name, rate)
  const { candidates, noCounty } = placeBoundCandidates({
    geography,
    state: STATE,
    stateRef,
    countyTail: () => [],
    placeTail: () => null,
    countyRef: rated.countyRef,
  })
  const notes = [`FL model: ${fileName}, rates current as of ${asOf}: state ${stateRate / 1000}% plus each county's discretionary surtax (${rateOf.size} counties; no city sales tax). The surtax applies to the first $5,000 of a single item (order tax applies the cap)`]
  notes.push(...rated.notes, ...setAside.notes(), ...noCountyNotes(STATE, noCounty))
  return {
    jurisdictions: table.list(),
    candidates,
    unplaced: [],
    edition: asOf,
    effectiveThrough: asOf,
    effectiveDateBasis: 'edition_only',
    rowsRead,
    rowsParsed: rowsRead - setAside.count,
    files: [],
    notes,
    ...leftOutOf(setAside.leftOut()),
  }
}
