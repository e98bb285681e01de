// The avalara-zip5 feed: an operator's Avalara ZIP5 drop (feeds/aggregator-drop.ts reads it) compiled
// against the geography, for states without a machine-readable official source. Each row is a ZIP's
// stack of state, county, city and special rates; its place is named by the tax region, not a GEOID.
import { stateByCode } from '../../../sources/index.ts'
import type { Geography } from '../../../snapshot-contract/geography-model.ts'
import type { FeedResult, JurisdictionRef, RawFile, ZipCandidate } from '../../../snapshot-contract/model.ts'
import type { AvalaraEdition, AvalaraRejection, AvalaraRow } from '../aggregator-drop.ts'
import { JurisdictionTable, countyCandidates, countyCode, countyName, zipsInState } from '../candidate-weights.ts'
import { aggregatorDefaults, type RowCandidate, type RuleSettings } from '../aggregator-defaults.ts'
import { regionCityNamer } from '../region-city.ts'

export const AVALARA_LABEL = 'Avalara estimate (aggregator, not an official source)'

const baseName = (name: string) => name.split(/[\\/]/).pop() ?? name

export type CompileAvalaraInput = {
  state: string
  rows: AvalaraRow[]
  fileName: string
  edition: AvalaraEdition
  geography: Geography
  /** rows in the file before rejection (defaults to rows.length); rejections are reported by the parser's notes */
  rowsRead?: number
  /** the rows the parser rejected: a ZIP left with none is listed in `rejectedZips` */
  rejected?: AvalaraRejection[]
  files?: RawFile[]
  /** the choice rules to apply (`make audit` compares variants); the service's by default */
  ruleSettings?: RuleSettings
}

/** Most frequent value (0 for none); ties go to the larger value so the choice is stable. */
function mode(values: number[]): number {
  const counts = new Map<number, number>()
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0] ?? 0
}

export function compileAvalara(input: CompileAvalaraInput): FeedResult {
  const { state, fileName, geography } = input
  const { edition, editionDate } = input.edition
  if (input.edition.state !== state) throw new Error(`${fileName}: edition of ${input.edition.state}, compiled as ${state}`)
  const source = baseName(fileName)
  const table = new JurisdictionTable({ state, from: editionDate, to: null, source })
  const stateName = stateByCode(state)?.name ?? state

  // P23: a border ZIP in two states' files belongs to the state geography assigns it to.
  const elsewhere: string[] = []
  const kept = input.rows.filter((row) => {
    const zip = geography.zips.get(row.zip)
    if (!zip || zip.state === state || zip.states.includes(state)) return true
    elsewhere.push(`${row.zip} (geography: ${zip.state})`)
    return false
  })
  const unknown = kept.filter((row) => !geography.zips.has(row.zip)).length
  const topCounty = (zipCode: string): string | null => {
    const zip = geography.zips.get(zipCode)
    return zip ? countyCandidates(zip, state)[0]!.fips : null
  }

  // An aggregator can give one county different rates in different ZIPs; then each ZIP gets its own code.
  const countyRates = new Map<string, Set<number>>()
  for (const row of kept) {
    const fips = topCounty(row.zip)
    if (fips) countyRates.set(fips, (countyRates.get(fips) ?? new Set()).add(row.countyRate))
  }
  const mainStateRate = mode(kept.map((row) => row.stateRate))
  let stateVariants = 0
  const stateJurisdiction = (row: AvalaraRow): JurisdictionRef => {
    if (row.stateRate === mainStateRate) return table.add('state', state, stateName, row.stateRate)
    stateVariants++
    return table.add('state', `${state}:${row.zip}`, `${stateName} state share (${row.taxRegionName})`, row.stateRate)
  }

  const cityName = regionCityNamer(geography, state, kept.map((row) => row.taxRegionName))
  const rowCandidates: RowCandidate[] = kept.map((row) => {
    const fips = topCounty(row.zip)
    const zipCode = `zip:${row.zip}`
    const stateRef = stateJurisdiction(row)
    const county = fips ? countyName(geography, fips) || row.taxRegionName : row.taxRegionName
    const code = !fips ? zipCode : countyRates.get(fips)!.size === 1 ? countyCode(fips) : `${countyCode(fips)}:${row.zip}`
    const city = row.cityRate > 0 ? cityName(row.taxRegionName, geography.zips.get(row.zip)) : ''
    const stack: JurisdictionRef[] = [stateRef, table.add('county', code, county, row.countyRate)]
    if (row.cityRate > 0) stack.push(table.add('city', zipCode, city, row.cityRate))
    if (row.specialRate > 0) stack.push(table.add('district', zipCode, `Special districts (${row.taxRegionName})`, row.specialRate))
    const candidate: ZipCandidate = { zip: row.zip, state, countyFips: fips, countyName: fips ? countyName(geography, fips) : '', placeFips: null, placeName: city, weight: 1, stack }
    return { row, candidate, countyFips: fips }
  })
  const { candidates, notes: restated } = aggregatorDefaults(geography, state, rowCandidates, input.ruleSettings)

  const covered = new Set(kept.map((row) => row.zip))
  const rejectedZips = new Map<string, string>()
  for (const { zip, reason } of input.rejected ?? []) {
    if (/^\d{5}$/.test(zip) && !covered.has(zip) && !rejectedZips.has(zip)) rejectedZips.set(zip, reason)
  }
  const missing = zipsInState(geography, state).filter((zip) => !covered.has(zip.zip)).length
  const notes = [`${AVALARA_LABEL}; edition ${edition}, no row dates: every rate is dated from the edition month`]
  if (elsewhere.length) notes.push(`${elsewhere.length} border ZIPs dropped as geography assigns them to another state (trap P23): ${elsewhere.join(', ')}`)
  if (unknown) notes.push(`${unknown} ZIPs unknown to geography kept without a county`)
  if (missing) notes.push(`${missing} geography ZIPs of ${state} have no row in this file`)
  notes.push(...restated)
  if (stateVariants) notes.push(`${stateVariants} ZIPs carry a state rate other than ${mainStateRate} (e.g. tribal areas); each has its own state-level code`)

  return {
    jurisdictions: table.list(),
    candidates,
    unplaced: [],
    edition,
    effectiveThrough: editionDate,
    effectiveDateBasis: 'edition_only',
    rowsRead: input.rowsRead ?? input.rows.length,
    rowsParsed: input.rows.length,
    files: input.files ?? [],
    notes,
    ...(rejectedZips.size ? { rejectedZips: [...rejectedZips].map(([zip, reason]) => ({ zip, reason: `row rejected: ${reason}` })) } : {}),
  }
}
