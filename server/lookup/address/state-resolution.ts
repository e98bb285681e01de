// Which state is served (rule state_derived_from_zip): the ZIP's state when the ZIP lies in one state only.
import type { StateDerivation } from './repair-messages.ts'
import type { SubmittedState } from './path-state.ts'
import type { FieldError, ZipFacts } from './types.ts'

export type ServedState = { ok: true; state: string; derivations: StateDerivation[] }

/**
 * `path` is the state parameter, null when the caller has none; `address` is the state written in
 * the address, if any (a placeholder there has code null). Without a single-state ZIP nothing is
 * derived, and a state that cannot be served is a field error.
 */
export function resolveServedState(
  path: SubmittedState | null,
  address: SubmittedState | null,
  zip5: string | null,
  zipFacts: ZipFacts,
): ServedState | FieldError {
  const facts = zip5 ? zipFacts(zip5) : null
  if (zip5 && facts && !facts.straddles) {
    const derived = facts.state
    const derivations: StateDerivation[] = []
    for (const [field, source] of [['state', path], ['address', address]] as const) {
      if (source && source.code !== derived) {
        derivations.push({ field, submitted: source.submitted, usable: source.code !== null, derived, zip: zip5 })
      }
    }
    return { ok: true, state: derived, derivations }
  }
  const why = !zip5
    ? 'no ZIP was given to derive it from'
    : !facts
      ? `ZIP ${zip5} is not a known ZIP`
      : `ZIP ${zip5} straddles a state line (${facts.states.join(', ')}), so the state is not derived from it`
  if (path === null) return addressStateAlone(address, zip5, facts, why)
  if (path.code === null) {
    return { ok: false, field: 'state', reason: `state "${path.submitted}" in the state parameter is not a US state code, and ${why}` }
  }
  if (facts && !facts.states.includes(path.code)) {
    return { ok: false, field: 'state', reason: `state ${path.code} in the state parameter is not one of the states of ZIP ${zip5} (${facts.states.join(', ')})` }
  }
  if (address?.code && address.code !== path.code && !facts?.states.includes(address.code)) {
    return {
      ok: false,
      field: 'state',
      reason: `state ${path.code} in the state parameter and state ${address.code} in the address disagree, and ${why}`,
    }
  }
  return { ok: true, state: path.code, derivations: [] }
}

/** No state parameter: the state written in the address is the only one to serve. */
function addressStateAlone(address: SubmittedState | null, zip5: string | null, facts: ReturnType<ZipFacts>, why: string): ServedState | FieldError {
  if (!address?.code) return { ok: false, field: 'state', reason: `no state was given, and ${why}` }
  if (facts && !facts.states.includes(address.code)) {
    return { ok: false, field: 'state', reason: `state ${address.code} in the address is not one of the states of ZIP ${zip5} (${facts.states.join(', ')})` }
  }
  return { ok: true, state: address.code, derivations: [] }
}
