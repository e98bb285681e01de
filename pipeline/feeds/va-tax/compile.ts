// Virginia from Virginia Tax's rate workbook (docs/data-sources.md#virginia). Each locality is a
// county or an independent city, both county-level FIPS codes of the ZIP geography, so a ZIP part
// answers its locality's stack: the state's general rate, the locality's local rate (county level),
// and each regional state tax of its region (district level: NVA, HR, CVA, HT). A locality whose row
// was set aside answers the state rate alone, its row counted as left out.
import type { Geography } from '../../../snapshot-contract/geography-model.ts'
import type { FeedResult, JurisdictionRef } from '../../../snapshot-contract/model.ts'
import { formatRate } from '../../../snapshot-contract/rate-units.ts'
import { countyCode, JurisdictionTable } from '../candidate-weights.ts'
import { noCountyNotes, placeBoundCandidates } from '../place-bound-candidates.ts'
import { leftOutOf } from '../set-aside.ts'
import { countiesRated } from '../set-aside-counties.ts'
import { VA_REGIONS, type VaRateWorkbook, type VaRegion } from './workbook.ts'

const STATE = 'VA'
const STATE_FIPS = '51'

export type CompileVaInput = { workbook: VaRateWorkbook; stateRate: number; geography: Geography; edition: string }

export function compileVaRates({ workbook, stateRate, geography, edition }: CompileVaInput): FeedResult {
  const { fileName, setAside } = workbook
  const rowsRead = workbook.localities.length + setAside.count
  const table = new JurisdictionTable({ state: STATE, from: null, to: null, source: fileName })
  const stateRef = table.add('state', STATE_FIPS, 'Virginia', stateRate)
  const tails = new Map<string, JurisdictionRef[]>()
  for (const locality of workbook.localities) {
    const fips = `${STATE_FIPS}${locality.fips}`
    const county = geography.counties.get(fips)
    if (!county) {
      setAside.add(`row ${locality.row}`, `FIPS ${fips} (${locality.name}) is no Virginia county or city of the geography`)
      continue
    }
    if (locality.state !== stateRate) {
      setAside.add(`row ${locality.row}`, `${locality.name} prints the state rate ${formatRate(locality.state)}, the rules table says ${formatRate(stateRate)}`, undefined, locality.fips)
      continue
    }
    if (tails.has(fips)) throw new Error(`${fileName} row ${locality.row}: FIPS ${fips} listed twice`)
    table.add('county', countyCode(fips), county.name, locality.local)
    tails.set(fips, (Object.entries(locality.regions) as [VaRegion, number][]).map(([region, rate]) => table.add('district', region, VA_REGIONS[region].replace('State Regional Sales Tax', 'Regional sales tax'), rate)))
  }
  setAside.assertWithinShare(rowsRead)
  // a locality whose row was set aside has no local or regional layer: the state rate alone
  const setAsideFips = setAside.namedLocalities().map((fips) => `${STATE_FIPS}${fips}`)
  const rated = countiesRated({ fileName, geography, state: STATE, noun: 'Virginia localities', rated: tails, setAside: setAsideFips })
  const { candidates, noCounty } = placeBoundCandidates({ geography, state: STATE, stateRef, countyTail: (fips) => tails.get(fips) ?? [], placeTail: () => null, countyRef: rated.countyRef })
  const notes = [`VA model: ${fileName}, ${tails.size} localities by FIPS: state ${formatRate(stateRate)}, the locality's local rate at the county level, regional state taxes (NVA, HR, CVA, HT) as districts. The file carries no date: its rates answer from the day they were fetched`]
  notes.push(...rated.notes, ...setAside.notes(), ...noCountyNotes(STATE, noCounty))
  return {
    jurisdictions: table.list(),
    candidates,
    unplaced: [],
    edition,
    effectiveThrough: edition,
    effectiveDateBasis: 'no_published_date',
    rowsRead,
    rowsParsed: rowsRead - setAside.count,
    files: [],
    notes,
    ...leftOutOf(setAside.leftOut()),
  }
}
