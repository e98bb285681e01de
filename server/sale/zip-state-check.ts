// Does a ZIP belong to the state it was sent with? Answered from the snapshot in service: a ZIP
// belongs to every state that holds addresses in it, so a ZIP straddling a state line is accepted
// with either state. Memoized per snapshot (a backfill asks once per row).
import type { RateIndex } from '../../snapshot-contract/rate-index.ts'

const memo = new WeakMap<RateIndex, Map<string, readonly string[]>>()

export function statesOfZip(rates: RateIndex, zip5: string): readonly string[] {
  let known = memo.get(rates)
  if (!known) memo.set(rates, (known = new Map()))
  let states = known.get(zip5)
  if (!states) {
    states = rates.lookupZip(zip5).map((entry) => entry.state)
    known.set(zip5, states)
  }
  return states
}

/** null when the pair is consistent, else the reason (the message integrators match on); `side` names the fields. */
export function zipStateMismatch(rates: RateIndex, zip5: string, state: string, side: 'to' | 'from' = 'to'): string | null {
  const states = statesOfZip(rates, zip5)
  if (states.includes(state)) return null
  if (states.length > 0) return `${side}_zip ${zip5} is not used within ${side}_state ${state}; it belongs to ${states.join(' and ')}`
  if (!rates.states.includes(state)) return `${side}_state ${state} is not served by the data in service, so ${side}_zip ${zip5} cannot be checked`
  return `${side}_zip ${zip5} is not a known ZIP code`
}
