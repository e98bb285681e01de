// The freeform `address` parameter: repairs in table order, then street, city, state and ZIP.
import { isOnlyCountry, readAddressTail, type AddressState, type AddressTail } from './address-tail.ts'
import { EditedText } from './edited-text.ts'
import { RULE } from './rules.ts'
import type { RepairLog } from './repair-log.ts'
import { stateFromZipMessage, stateNameMessage, streetDuplicateMessage, type StateDerivation } from './repair-messages.ts'
import { splitStreetAndCity, type StreetAndCity } from './street-and-city.ts'
import { findDuplicateStreetFragments, type DuplicateRemoval } from './street-duplicates.ts'
import { tokenize, type Token } from './tokens.ts'
import type { FieldError } from './types.ts'
import { collapseFieldWhitespace } from './whitespace-repair.ts'
import { removeCountryToken, repairZipSuffix } from './zip-repairs.ts'
import { readZip, type ParsedZip } from './zip-text.ts'

export type ParsedAddress = StreetAndCity & {
  text: EditedText
  state: AddressState | null
  zip: ParsedZip | null
}

/** True when a state read from a name in the address is contradicted by the path state or the ZIP. */
export type StateContradicted = (code: string, addressZip5: string | null) => boolean

type Body = { state: AddressState | null; duplicates: DuplicateRemoval; parts: StreetAndCity }

function readBody(tokens: readonly Token[], remainderEnd: number, state: AddressState | null): Body {
  const remainder = tokens.slice(0, remainderEnd)
  const duplicates = findDuplicateStreetFragments(remainder)
  const removed = new Set(duplicates.edits.flatMap((e) => Array.from({ length: e.end - e.start }, (_, n) => e.start + n)))
  return { state, duplicates, parts: splitStreetAndCity(remainder.filter((_, i) => !removed.has(i))) }
}

/**
 * "1600 Pennsylvania Ave NW, Washington" sent for DC: a state name standing where the city belongs, and
 * contradicted by the path or ZIP, is the city.
 */
function readBodyWithCityFallback(tokens: readonly Token[], tail: AddressTail, zip5: string | null, contradicted: StateContradicted): Body {
  const body = readBody(tokens, tail.remainderEnd, tail.state)
  const state = tail.state
  if (!state || state.kind !== 'name' || body.parts.city !== null || !contradicted(state.code, zip5)) return body
  return readBody(tokens, state.end, null)
}

export function readAddressField(raw: string, log: RepairLog, contradicted: StateContradicted): { ok: true; address: ParsedAddress } | FieldError {
  const text = new EditedText(tokenize(collapseFieldWhitespace('address', raw, log)))
  const reading = readAddressTail(text.tokens)
  if (!reading.ok) return { ok: false, field: 'zip', reason: `${reading.reason} (in the address)` }
  const { tail } = reading
  if ((tail.remainderEnd === 0 && !tail.zip && !tail.state) || isOnlyCountry(text.tokens)) {
    return { ok: false, field: 'address', reason: 'address has no usable content: no street, city, state or ZIP' }
  }
  const zipReading = tail.zip ? readZip(tail.zip.text) : null
  const zip = zipReading?.ok ? zipReading.zip : null
  if (tail.zip && zip) repairZipSuffix(text, 'address', tail.zip, zip, log)
  if (tail.country) removeCountryToken(text, 'address', tail.country, log)

  const { state, duplicates, parts } = readBodyWithCityFallback(text.tokens, tail, zip?.zip5 ?? null, contradicted)
  if (state?.kind === 'name') {
    const { before, after } = text.apply([{ start: state.start, end: state.end, words: [state.code] }])
    log.add({
      rule: RULE.stateName,
      field: 'address',
      raw: before,
      normalized: after,
      confidence: 'unambiguous',
      detail: { written: state.text, code: state.code },
      warning: stateNameMessage('address', state.text, state.code),
    })
  }
  if (duplicates.edits.length > 0) {
    const { before, after } = text.apply(duplicates.edits)
    log.add({
      rule: RULE.streetDuplicate,
      field: 'address',
      raw: before,
      normalized: after,
      confidence: 'heuristic',
      detail: { fragments: [...new Set(duplicates.fragments)], copies_removed: duplicates.edits.length },
      warning: streetDuplicateMessage('address', [...new Set(duplicates.fragments)]),
    })
  }
  return { ok: true, address: { text, state, zip, ...parts } }
}

/** Rule state_derived_from_zip on the state written in the address. */
export function replaceAddressState(address: ParsedAddress, derivation: StateDerivation, log: RepairLog): void {
  const state = address.state!
  const { before, after } = address.text.apply([{ start: state.start, end: state.end, words: [derivation.derived] }])
  log.add({
    rule: RULE.stateFromZip,
    field: 'address',
    raw: before,
    normalized: after,
    confidence: 'heuristic',
    detail: { submitted_state: derivation.submitted, derived_state: derivation.derived, zip: derivation.zip },
    warning: stateFromZipMessage(derivation),
  })
}
