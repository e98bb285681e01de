// The `error.correction` object of spec 7 for strict mode: what the first applied repair would change.
import { RULE } from './rules.ts'
import { quotedState } from './repair-messages.ts'
import type { AddressInput, NormalizationEntry, NormalizedInput } from './types.ts'
import { formatZip } from './zip-text.ts'

export type StrictCorrection = {
  field: string
  raw: string
  suggested: string
  /** the whole address with every repair applied, one line; null when no address was sent */
  suggested_address: string | null
  rule_id: string
  detail: Record<string, unknown>
  hint: string
}

function formatAddress(value: NormalizedInput): string {
  const stateAndZip = [value.state, value.zip5 ? formatZip(value.zip5, value.zip4) : null].filter(Boolean).join(' ')
  return [value.street, value.city, stateAndZip].filter((part) => part !== null && part !== '').join(', ')
}

/** Names both the state field and the ZIP, so the caller can decide which one is wrong. */
function stateFromZipHint(entry: NormalizationEntry): string {
  const { submitted_state, derived_state, zip } = entry.detail as { submitted_state: string; derived_state: string; zip: string }
  const stateField = entry.field === 'address' ? 'the state in the address' : 'the state field in the path'
  const submitted = quotedState(submitted_state)
  const mismatch = /^[A-Z]{2}$/.test(submitted_state)
    ? `${stateField} ${submitted} does not match ZIP ${zip}, which is in ${derived_state}`
    : `${stateField} ${submitted} is not a state; ZIP ${zip} is in ${derived_state}`
  return `In strict mode ${mismatch}. Send state ${derived_state} with ZIP ${zip}, or correct the ZIP if the state is right.`
}

export function strictCorrection(value: NormalizedInput, input: AddressInput): StrictCorrection | null {
  const first = value.applied[0]
  if (!first) return null
  const others = value.applied.length - 1
  const more = others > 0 ? ` ${others} more repair${others > 1 ? 's' : ''} would also apply; suggested_address includes them all.` : ''
  const hint = first.rule_id === RULE.stateFromZip
    ? stateFromZipHint(first)
    : `In strict mode input is not repaired: ${value.warnings[0]} Send the suggested value instead.`
  return {
    field: first.field,
    raw: first.raw,
    suggested: first.normalized,
    suggested_address: input.address === undefined ? null : formatAddress(value),
    rule_id: first.rule_id,
    detail: first.detail,
    hint: hint + more,
  }
}
