// District codes of a rate file bound to the counties a statute gives them, when no boundary file
// is at hand. A code is bound only when its rate and first day match exactly one fact of the
// state's table (sources/district-area.ts) and no other code matches that fact; a county whose own
// county-level row has the same rate and first day already carries the tax there (Ramsey's
// transit tax is its county row 123), so the district is not added on top of it.
import type { DistrictAreaTable } from '../../../sources/district-area.ts'
import type { Geography } from '../../../snapshot-contract/geography-model.ts'
import { countyMatchKey } from '../candidate-weights.ts'
import { parseRateFraction } from '../../../snapshot-contract/rate-units.ts'

type RateRow = { rate: number; from: string }

export type DistrictAreaInput = {
  state: string
  table: DistrictAreaTable
  geography: Geography
  /** district code → its rate rows */
  districts: ReadonlyMap<string, readonly RateRow[]>
  /** county FIPS (5 digits) → its county-level rate rows */
  countyRows: (countyFips: string) => readonly RateRow[]
}

export type DistrictAreaBinding = {
  /** district code → the county FIPS codes it is bound to */
  counties: Map<string, string[]>
  notes: string[]
}

export function bindDistrictAreas({ state, table, geography, districts, countyRows }: DistrictAreaInput): DistrictAreaBinding {
  const notes: string[] = []
  const fipsByName = new Map([...geography.counties.values()].filter((c) => c.state === state).map((c) => [countyMatchKey(c.name), c.fips]))

  // Facts whose every county is known; a row naming an unknown county binds nothing (its codes stay disclosed).
  const facts = table.areas.flatMap((area) => {
    const unknown = area.counties.filter((name) => !fipsByName.has(countyMatchKey(name)))
    if (unknown.length) {
      notes.push(`${table.source}: "${area.tax}" names ${unknown.map((n) => `"${n}"`).join(', ')}, no ${state} county in the geography; the row binds nothing`)
      return []
    }
    const rate = parseRateFraction(area.rate)
    if (!rate.ok) throw new Error(`${table.source}: "${area.tax}": ${rate.reason}`)
    return [{ area, rate: rate.units, counties: area.counties.map((name) => fipsByName.get(countyMatchKey(name))!) }]
  })

  const matches = new Map<string, typeof facts>()
  for (const [code, rows] of districts) {
    const matched = facts.filter((fact) => rows.some((row) => row.rate === fact.rate && row.from === fact.area.firstDay))
    if (matched.length) matches.set(code, matched)
  }
  const codesOfFact = (fact: (typeof facts)[number]) => [...matches].filter(([, matched]) => matched.includes(fact)).map(([code]) => code)

  const counties = new Map<string, string[]>()
  for (const [code, matched] of matches) {
    if (matched.length > 1) {
      notes.push(`district ${code} matches ${matched.length} rows of ${table.source} (${matched.map((f) => f.area.tax).join('; ')}); not bound`)
      continue
    }
    const fact = matched[0]!
    const rivals = codesOfFact(fact).filter((other) => other !== code)
    if (rivals.length) {
      notes.push(`district ${code} and ${rivals.join(', ')} all match "${fact.area.tax}" in ${table.source}; none bound`)
      continue
    }
    const carried = fact.counties.filter((fips) => countyRows(fips).some((row) => row.rate === fact.rate && row.from === fact.area.firstDay))
    const bound = fact.counties.filter((fips) => !carried.includes(fips))
    counties.set(code, bound)
    notes.push(
      `district ${code} bound to ${bound.length} counties by "${fact.area.tax}" (${fact.area.citation})` +
        (carried.length ? `; not added in ${carried.join(', ')}, whose county row has the same rate and first day and carries the tax there` : ''),
    )
  }
  return { counties, notes }
}
