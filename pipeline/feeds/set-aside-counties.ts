// The counties (county-level localities: Virginia's independent cities too) of a file that rates each
// county in rows of its own. A county rated only in rows the reader set aside is in the file, not
// missing: it answers the state's layer alone, its own taxes left out of its answers, which carry the
// set-aside rows' warning (set-aside.ts). A county no row names at all leaves the file incomplete,
// and the file fails: serving it the state rate alone would be a silent zero nothing warns about.
import type { Geography } from '../../snapshot-contract/geography-model.ts'
import type { JurisdictionRef } from '../../snapshot-contract/model.ts'
import { countyCode } from './candidate-weights.ts'

export type CountiesRatedInput = {
  fileName: string
  geography: Geography
  state: string
  /** what the state's counties are called in errors and notes: `Florida counties`, `Virginia localities` */
  noun: string
  /** the county FIPS codes the file rates */
  rated: ReadonlySet<string> | ReadonlyMap<string, unknown>
  /** the county FIPS codes rows set aside name */
  setAside: Iterable<string>
}

export type CountiesRated = {
  /** a county part's county ref for placeBoundCandidates: none in a county answered by the state alone */
  countyRef: (countyFips: string) => JurisdictionRef | null
  /** the note naming the counties with no layer of their own, the rows rating them set aside (none when none is) */
  notes: string[]
}

/** How many counties a note or error names. */
const NAMED = 5

export function countiesRated({ fileName, geography, state, noun, rated, setAside }: CountiesRatedInput): CountiesRated {
  const named = new Set(setAside)
  const counties = [...geography.counties.values()].filter((c) => c.state === state)
  const unrated = counties.filter((c) => !rated.has(c.fips))
  const missing = unrated.filter((c) => !named.has(c.fips))
  const list = (found: typeof counties) => `${found.slice(0, NAMED).map((c) => `${c.name} (${c.fips})`).join(', ')}${found.length > NAMED ? ', …' : ''}`
  if (missing.length) throw new Error(`${fileName}: ${missing.length} of ${counties.length} ${noun} of the geography not listed (${list(missing)}): the file is incomplete`)
  const stateAlone = unrated.filter((c) => named.has(c.fips))
  return {
    countyRef: (fips) => (rated.has(fips) ? { level: 'county', code: countyCode(fips) } : null),
    notes: stateAlone.length ? [`${stateAlone.length} ${noun} have no layer of their own, the rows rating them set aside (${list(stateAlone)}): outside any place rated apart, the state's layer alone answers there`] : [],
  }
}
