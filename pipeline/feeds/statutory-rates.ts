// The general state rate's windows as the rules table states them (sources/state-facts.ts), each
// labelled with its dates and the table's sources: what a statute feed records as the state
// jurisdiction's rows (the one-rate statute and the statute tables alike).
import type { JurisdictionRate } from '../../snapshot-contract/model.ts'
import { formatRatePercent } from '../../snapshot-contract/rate-units.ts'
import type { StateFacts } from '../../sources/state-facts.ts'

/** One window of the state rate, with where it is stated (recorded as the jurisdiction's source). */
export type StatutoryRate = Pick<JurisdictionRate, 'rate' | 'from' | 'to' | 'source'>

/** The rules table's windows of a state's rate, each labelled with the rate, its dates and the row's sources. */
export function statutoryRates(facts: StateFacts): StatutoryRate[] {
  return facts.stateRates.map(({ rate, from, to }) => {
    const dates = [from && `from ${from}`, to && `through ${to}`].filter(Boolean).join(' ')
    const source = `state rate ${formatRatePercent(rate)}%${dates ? ` ${dates}` : ''} per rules table (${facts.source})`
    return { rate, from, to, source }
  })
}
