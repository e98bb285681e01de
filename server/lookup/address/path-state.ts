// The `state` path segment: a code, a state name (rule state_name_to_code) or an unusable placeholder.
import { RULE } from './rules.ts'
import type { RepairLog } from './repair-log.ts'
import { stateFromZipMessage, stateNameMessage, type StateDerivation } from './repair-messages.ts'
import { matchState } from './state-names.ts'
import { collapseFieldWhitespace } from './whitespace-repair.ts'

export type SubmittedState = {
  /** as submitted: the upper-case code for a code, the text as written for a name or placeholder */
  submitted: string
  /** null when the value is not a state ("N", "false", "-", "XX", "") */
  code: string | null
  /** the field's value after the earlier repairs (whitespace, name to code) */
  current: string
}

export function readPathState(raw: string, log: RepairLog): SubmittedState {
  const text = collapseFieldWhitespace('state', raw, log)
  const match = text === '' ? null : matchState(text.split(' '))
  if (!match) return { submitted: text, code: null, current: text }
  if (match.form === 'name') {
    log.add({
      rule: RULE.stateName,
      field: 'state',
      raw: text,
      normalized: match.code,
      confidence: 'unambiguous',
      detail: { written: text, code: match.code },
      warning: stateNameMessage('state', text, match.code),
    })
  }
  return match.form === 'code'
    ? { submitted: match.code, code: match.code, current: text }
    : { submitted: text, code: match.code, current: match.code }
}

/** Rule state_derived_from_zip on the path state. */
export function replacePathState(path: SubmittedState, derivation: StateDerivation, log: RepairLog): void {
  log.add({
    rule: RULE.stateFromZip,
    field: 'state',
    raw: path.current,
    normalized: derivation.derived,
    confidence: 'heuristic',
    detail: { submitted_state: derivation.submitted, derived_state: derivation.derived, zip: derivation.zip },
    warning: stateFromZipMessage(derivation),
  })
}
