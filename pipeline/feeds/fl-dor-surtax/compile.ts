// Florida from DOR's discretionary sales surtax rates (docs/data-sources.md#florida): one surtax per
// county and no city sales tax, so each county is bound by name to its FIPS code and every ZIP part
// answers its county's stack (state + county surtax), weighted by the ZIP's county shares.
import type { Geography } from '../../../snapshot-contract/geography-model.ts'
import type { FeedResult } from '../../../snapshot-contract/model.ts'
import { countiesByMatchKey, countyCode, countyMatchKey, JurisdictionTable } from '../candidate-weights.ts'
import type { FlSurtaxWorkbook } from './workbook.ts'
import { placeBoundCandidates } from '../place-bound-candidates.ts'

const STATE = 'FL'
const STATE_FIPS = '12'

export type CompileFlInput = { workbook: FlSurtaxWorkbook; stateRate: number; geography: Geography }

export function compileFlSurtax({ workbook, stateRate, geography }: CompileFlInput): FeedResult {
  const { fileName, asOf } = workbook
  const counties = countiesByMatchKey(geography, STATE)
  const rateOf = new Map<string, number>()
  for (const row of workbook.rows) {
    const county = counties.get(countyMatchKey(row.county))
    if (!county) throw new Error(`${fileName} row ${row.row}: ${row.county} binds to no Florida county of the geography`)
    if (rateOf.has(county.fips)) throw new Error(`${fileName} row ${row.row}: ${row.county} listed twice`)
    rateOf.set(county.fips, row.rate)
  }
  const missing = [...counties.values()].filter((c) => !rateOf.has(c.fips)).map((c) => c.name)
  if (missing.length) throw new Error(`${fileName}: ${missing.length} of ${counties.size} Florida counties not listed (${missing.slice(0, 5).join(', ')}): the workbook is incomplete`)

  const table = new JurisdictionTable({ state: STATE, from: asOf, to: null, source: fileName })
  const stateRef = table.add('state', STATE_FIPS, 'Florida', stateRate)
  for (const [fips, rate] of rateOf) table.add('county', countyCode(fips), geography.counties.get(fips)!.name, rate)
  const { candidates, noCounty } = placeBoundCandidates({ geography, state: STATE, stateRef, countyTail: () => [], placeTail: () => null })
  const notes = [`FL model: ${fileName}, rates current as of ${asOf}: state ${stateRate / 1000}% plus each county's discretionary surtax (${rateOf.size} counties; no city sales tax). The surtax applies to the first $5,000 of a single item (order tax applies the cap)`]
  if (noCounty) notes.push(`${noCounty} ZIP candidates have no FL county in geography: state rate only`)
  return {
    jurisdictions: table.list(),
    candidates,
    unplaced: [],
    edition: asOf,
    effectiveThrough: asOf,
    effectiveDateBasis: 'edition_only',
    rowsRead: workbook.rows.length,
    rowsParsed: workbook.rows.length,
    files: [],
    notes,
  }
}
