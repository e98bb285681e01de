// States answered from one statutory rate (no local taxes in our model): CT, DC, IN, KY, MA, MD,
// ME, MI, RI, and DE, NH, OR at 0 — a rate of 0 is a real answer with a real state jurisdiction,
// not missing data (trap P29). The rate and its effective windows come from the rules table
// (sources/state-facts.ts): DC's 6% through 2026-09-30 and 7% from 2026-10-01 are two rows of one
// jurisdiction, so a lookup's date picks between them.
import type { Geography } from '../../../snapshot-contract/geography-model.ts'
import type { FeedResult, JurisdictionRate } from '../../../snapshot-contract/model.ts'
import { formatRatePercent } from '../../../snapshot-contract/rate-units.ts'
import { RULES_TABLE_AS_OF, type StateFacts } from '../../../sources/state-facts.ts'
import { candidatesByCounty, zipsInState } from '../candidate-weights.ts'

/** One window of the state rate, with where it is stated (recorded as the jurisdiction's source). */
export type StatutoryRate = Pick<JurisdictionRate, 'rate' | 'from' | 'to' | 'source'>

export type CompileStatutoryInput = {
  state: string
  stateName: string
  /** the state rate's windows, oldest first (1e-5 units) */
  rates: StatutoryRate[]
  geography: Geography
  /** date the rates were verified for; defaults to the rules table's as-of date */
  asOf?: string
}

/** The rules table's windows of a state's rate, each labelled with the rate, its dates and the row's sources. */
export function statutoryRates(facts: StateFacts): StatutoryRate[] {
  return facts.stateRates.map(({ rate, from, to }) => {
    const dates = [from && `from ${from}`, to && `through ${to}`].filter(Boolean).join(' ')
    const source = `state rate ${formatRatePercent(rate)}%${dates ? ` ${dates}` : ''} per rules table (${facts.source})`
    return { rate, from, to, source }
  })
}

export function compileStatutory(input: CompileStatutoryInput): FeedResult {
  const { state, stateName, rates, geography } = input
  const asOf = input.asOf ?? RULES_TABLE_AS_OF
  const jurisdictions: JurisdictionRate[] = rates.map((window) => ({ ...window, state, level: 'state', code: state, name: stateName }))
  const stack = [{ level: 'state' as const, code: state }]
  const candidates = zipsInState(geography, state).flatMap((zip) =>
    candidatesByCounty(geography, zip, state, () => [{ placeFips: null, placeName: '', stack }]),
  )
  const notes = [...rates.map((window) => `statutory ${window.source}`), `no local taxes modelled; verified as of ${asOf}`]
  if (rates.every((window) => window.rate === 0)) notes.push(`${stateName} levies no general sales tax: 0 is the answer, not missing data`)
  if (candidates.length === 0) notes.push(`geography has no ZIP in ${state}`)
  const latestStart = rates.reduce<string | null>((latest, window) => (window.from && (!latest || window.from > latest) ? window.from : latest), null)

  return {
    jurisdictions,
    candidates,
    unplaced: [],
    edition: 'statutory',
    // A rate scheduled to start after the as-of date is reflected through its start date.
    effectiveThrough: latestStart && latestStart > asOf ? latestStart : asOf,
    effectiveDateBasis: rates.some((window) => window.from || window.to) ? 'publisher_effective_date' : 'no_published_date',
    rowsRead: rates.length,
    rowsParsed: rates.length,
    files: [],
    notes,
  }
}
