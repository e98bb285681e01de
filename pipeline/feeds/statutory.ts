// States answered from one statutory rate (no local taxes in our model): CT, DC, IN, KY, MA, MD,
// ME, MI, RI, and DE, NH, OR (and MT) at 0 — a rate of 0 is a real answer with a real state
// jurisdiction, not missing data (pitfall P29).
import type { Geography } from '../../snapshot-contract/geography-model.ts'
import type { FeedResult } from '../../snapshot-contract/model.ts'
import { JurisdictionTable, candidatesByCounty, zipsInState } from './candidate-weights.ts'

/**
 * The date the shared rules table vouches for: state-rules.md says its values are the rules in force
 * in Q4 2026, "e.g. on 2026-12-01". A statutory feed reflects the rate through that date — not
 * through the build date, which would claim a re-verification nobody made and make builds differ
 * by the day they ran.
 */
export const RULES_TABLE_AS_OF = '2026-12-01'

export type CompileStatutoryInput = {
  state: string
  stateName: string
  /** state rate in 1e-5 units */
  rate: number
  /** where the rate is stated (statute or rules-table source), recorded as the jurisdiction's source */
  label: string
  /** first day of the rate when a dated source gives one; null when only "in force as of" is known */
  effectiveFrom: string | null
  geography: Geography
  /** date the rate was verified for; defaults to the rules table's as-of date */
  asOf?: string
}

export function compileStatutory(input: CompileStatutoryInput): FeedResult {
  const { state, stateName, rate, label, effectiveFrom, geography } = input
  const asOf = input.asOf ?? RULES_TABLE_AS_OF
  const table = new JurisdictionTable({ state, from: effectiveFrom, to: null, source: label })
  const stack = [table.add('state', state, stateName, rate)]
  const candidates = zipsInState(geography, state).flatMap((zip) =>
    candidatesByCounty(geography, zip, state, () => [{ placeFips: null, placeName: '', stack }]),
  )
  const notes = [`statutory state rate from ${label}; no local taxes modelled; verified as of ${asOf}`]
  if (rate === 0) notes.push(`${stateName} levies no general sales tax: 0 is the answer, not missing data`)
  if (candidates.length === 0) notes.push(`geography has no ZIP in ${state}`)

  return {
    jurisdictions: table.list(),
    candidates,
    unplaced: [],
    edition: 'statutory',
    // A rate scheduled to start after the as-of date is reflected through its start date.
    effectiveThrough: effectiveFrom && effectiveFrom > asOf ? effectiveFrom : asOf,
    effectiveDateBasis: effectiveFrom ? 'publisher_effective_date' : 'no_published_date',
    rowsRead: 1,
    rowsParsed: 1,
    files: [],
    notes,
  }
}
