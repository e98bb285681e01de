// The request's input made ready to locate: address and ZIP modes through the address module
// (the repairs of api.md "Normalization", state derived from the ZIP), place and point modes through the path state and
// the location's own state. Strict mode refuses anything that would be repaired (400 + correction).
import { HttpError } from '../base/errors.ts'
import { normalizeAddressInput, RULE, strictCorrection, type AddressInput, type NormalizationEntry, type NormalizedInput } from './address/index.ts'
import { invalidInput, unknownZip } from './lookup-errors.ts'
import type { LookupRequest } from './lookup-request.ts'
import { readLocation, readPathStateText, type WrittenState } from './location-text.ts'
import type { PlaceQuery } from './place-location.ts'
import type { PointQuery } from './coordinate-location.ts'
import type { ZipEntries } from './zip-entries.ts'
import type { ZipQuery } from './zip-location.ts'

export type Normalization = { applied: NormalizationEntry[]; warnings: string[] }

/** An address with a street, as an upstream geocoder is asked about it. */
export type StreetAddress = { street: string; city: string | null; state: string; zip5: string | null; zip4: string | null }

export type PreparedInput = (
  | { kind: 'zip'; query: ZipQuery }
  | { kind: 'place'; query: PlaceQuery; inputPlace: string }
  | { kind: 'point'; query: PointQuery }
) & { normalization: Normalization; streetAddress: StreetAddress | null }

/** The first 5-digit group of what was sent as a ZIP, for a 404 when the state could not be derived from it. */
const zip5Sent = (text: string | undefined): string | null => (text ? /(?:^|\D)(\d{5})(?:-\d{4})*(?:\D|$)/.exec(text)?.[1] ?? null : null)

function strictRefusal(value: NormalizedInput, input: AddressInput): HttpError {
  const correction = strictCorrection(value, input)!
  const stateEntry = value.applied.find((entry) => entry.rule_id === RULE.stateFromZip)
  const message = stateEntry
    ? `Strict mode: the state field and ZIP ${String(stateEntry.detail.zip)} disagree (state ${String(stateEntry.detail.submitted_state) || '(empty)'}, ZIP in ${String(stateEntry.detail.derived_state)}); the input is refused rather than repaired. ${correction.hint}`
    : `Strict mode: the input would be normalized (${correction.rule_id}) and is refused rather than repaired. ${correction.hint}`
  return new HttpError('INVALID_INPUT', message, { correction })
}

function prepareAddress(request: LookupRequest, input: AddressInput, zips: ZipEntries): PreparedInput {
  const result = normalizeAddressInput(input, zips.facts)
  if (!result.ok) {
    const zip5 = zip5Sent(input.zip) ?? zip5Sent(input.address)
    if (result.field === 'state' && zip5 && zips.facts(zip5) === null) throw unknownZip(zip5, null)
    throw invalidInput(`${result.reason}.`, { field: result.field })
  }
  const value = result.value
  if (request.strict && value.applied.length > 0) throw strictRefusal(value, input)
  const normalization = { applied: value.applied, warnings: value.warnings }
  const state = value.state!
  const streetAddress = value.street ? { street: value.street, city: value.city, state, zip5: value.zip5, zip4: value.zip4 } : null
  if (value.zip5) {
    const via = request.input.mode === 'zip' ? 'zip5' : 'address_locator'
    return { kind: 'zip', query: { zip5: value.zip5, zip4: value.zip4, street: value.street, state, city: value.city, via, isoDate: request.date.iso }, normalization, streetAddress }
  }
  if (!value.city) {
    throw invalidInput(`The address has no ZIP and no city to locate${value.street ? ` (street "${value.street}" alone cannot be placed without a geocoder)` : ''}; send a ZIP or a city.`, { field: 'address' })
  }
  return { kind: 'place', query: { name: value.city, state }, inputPlace: value.city, normalization, streetAddress }
}

/** Rule state_name_to_code on the path state or the location's state. */
function logStateName(log: Normalization, field: 'state' | 'location', written: WrittenState, raw: string, normalized: string): void {
  log.applied.push({ rule_id: RULE.stateName, field, raw, normalized, confidence: 'unambiguous', detail: { written: written.written, code: written.code } })
  log.warnings.push(`State "${written.written}" in ${field === 'state' ? 'the state parameter' : 'the location'} served as ${written.code}.`)
}

/** The path state of place and point modes; a state name is repaired (state_name_to_code) like in address mode. */
function readPathState(text: string | null, log: Normalization): string | null {
  if (text === null) return null
  const written = readPathStateText(text)
  if (written?.form === 'name') logStateName(log, 'state', written, text, written.code)
  return written?.code ?? null
}

function preparePlace(request: LookupRequest, location: string): PreparedInput {
  const normalization: Normalization = { applied: [], warnings: [] }
  const pathState = readPathState(request.pathState, normalization)
  const { name, state } = readLocation(location)
  if (!name) throw invalidInput(`location "${location}" has no place name.`, { field: 'location' })
  if (state?.form === 'name') logStateName(normalization, 'location', state, location, `${name}, ${state.code}`)
  if (state && pathState && state.code !== pathState) {
    throw invalidInput(`The path state ${pathState} and the state ${state.code} in the location disagree; send the place under its own state.`, { field: 'location' })
  }
  if (request.strict && normalization.applied.length > 0) {
    const value: NormalizedInput = { street: null, city: name, state: state?.code ?? pathState, zip5: null, zip4: null, ...normalization }
    throw strictRefusal(value, { pathState: request.pathState ?? undefined })
  }
  return { kind: 'place', query: { name, state: state?.code ?? pathState }, inputPlace: name, normalization, streetAddress: null }
}

/**
 * The common case without the parser: a clean 5-digit ZIP sent under one of its own states, or
 * with no state at all when it lies in one state. The address module would apply no repair to it,
 * so its answer is known without running it.
 */
function cleanZip(request: LookupRequest, zip: string, zips: ZipEntries): PreparedInput | null {
  if (!/^\d{5}$/.test(zip)) return null
  const facts = zips.facts(zip)
  const state = request.pathState === null ? (facts?.straddles ? null : facts?.state) : request.pathState.toUpperCase()
  if (!state || !facts?.states.includes(state)) return null
  return { kind: 'zip', query: { zip5: zip, zip4: null, street: null, state, city: null, via: 'zip5', isoDate: request.date.iso }, normalization: { applied: [], warnings: [] }, streetAddress: null }
}

export function prepareInput(request: LookupRequest, zips: ZipEntries): PreparedInput {
  const input = request.input
  switch (input.mode) {
    case 'address':
      return prepareAddress(request, { pathState: request.pathState ?? undefined, address: input.address, city: input.city, zip: input.zip }, zips)
    case 'zip':
      return cleanZip(request, input.zip, zips) ?? prepareAddress(request, { pathState: request.pathState ?? undefined, zip: input.zip }, zips)
    case 'place':
      return preparePlace(request, input.location)
    case 'coordinates': {
      const normalization: Normalization = { applied: [], warnings: [] }
      const state = readPathState(request.pathState, normalization)
      return { kind: 'point', query: { lat: input.lat, lng: input.lng, state }, normalization, streetAddress: null }
    }
  }
}
