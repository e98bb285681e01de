// normalizeAddressInput: the six repairs of api.md "Normalization" and the parse of address, city, zip and path state.
import { normalizePlaceName } from '../../../snapshot-contract/place-names.ts'
import { readAddressField, replaceAddressState, type ParsedAddress } from './address-field.ts'
import { checkFieldLimits, hasUsableContent } from './input-limits.ts'
import { readPathState, replacePathState, type SubmittedState } from './path-state.ts'
import { RepairLog } from './repair-log.ts'
import { resolveServedState } from './state-resolution.ts'
import type { AddressInput, FieldError, NormalizeResult, ZipFacts } from './types.ts'
import { collapseFieldWhitespace } from './whitespace-repair.ts'
import { readZipParameter } from './zip-parameter.ts'
import { formatZip, type ParsedZip } from './zip-text.ts'

function checkInput(input: AddressInput): FieldError | null {
  const fields = [['state', input.pathState], ['address', input.address], ['city', input.city], ['zip', input.zip]] as const
  for (const [field, value] of fields) {
    const error = value === undefined ? null : checkFieldLimits(field, value)
    if (error) return error
  }
  if (input.address === undefined && input.zip === undefined) {
    return { ok: false, field: 'address', reason: 'give an address (optionally with city and zip) or a zip' }
  }
  if (input.address !== undefined && !hasUsableContent(input.address)) {
    return { ok: false, field: 'address', reason: 'address has no usable content: no letters or digits' }
  }
  if (input.city !== undefined && !hasUsableContent(input.city)) {
    return { ok: false, field: 'city', reason: 'city has no usable content: no letters or digits' }
  }
  return null
}

/** The zip parameter wins; a ZIP in the address must be the same ZIP (one may carry a +4 the other lacks). */
function mergeZips(fromParameter: ParsedZip | null, fromAddress: ParsedZip | null): ParsedZip | FieldError | null {
  if (!fromParameter || !fromAddress) return fromParameter ?? fromAddress
  const sameZip5 = fromParameter.zip5 === fromAddress.zip5
  const samePlus4 = !fromParameter.zip4 || !fromAddress.zip4 || fromParameter.zip4 === fromAddress.zip4
  if (sameZip5 && samePlus4) return { ...fromParameter, zip4: fromParameter.zip4 ?? fromAddress.zip4 }
  return {
    ok: false,
    field: 'zip',
    reason: `zip ${formatZip(fromParameter.zip5, fromParameter.zip4)} and the ZIP ${formatZip(fromAddress.zip5, fromAddress.zip4)} in the address disagree`,
  }
}

const addressState = (address: ParsedAddress | null): SubmittedState | null => {
  const state = address?.state
  if (!state) return null
  return { submitted: state.kind === 'code' ? state.code : state.text, code: state.code, current: state.code ?? state.text }
}

export function normalizeAddressInput(input: AddressInput, zipFacts: ZipFacts): NormalizeResult {
  const invalid = checkInput(input)
  if (invalid) return invalid
  const log = new RepairLog()
  const path = input.pathState === undefined ? null : readPathState(input.pathState, log)

  const zipParameter = input.zip === undefined ? null : readZipParameter(input.zip, log)
  if (zipParameter && !zipParameter.ok) return zipParameter
  const parameterZip = zipParameter?.zip ?? null

  const singleState = (zip5: string | null): string | null => {
    const facts = zip5 ? zipFacts(zip5) : null
    return facts && !facts.straddles ? facts.state : null
  }
  const contradicted = (code: string, addressZip5: string | null): boolean => {
    const authorities = [path?.code ?? null, singleState(parameterZip?.zip5 ?? addressZip5)].filter((c) => c !== null)
    return authorities.length > 0 && !authorities.includes(code)
  }
  const addressReading = input.address === undefined ? null : readAddressField(input.address, log, contradicted)
  if (addressReading && !addressReading.ok) return addressReading
  const address = addressReading?.address ?? null

  const zip = mergeZips(parameterZip, address?.zip ?? null)
  if (zip && 'ok' in zip) return zip

  const served = resolveServedState(path, addressState(address), zip?.zip5 ?? null, zipFacts)
  if (!served.ok) return served
  for (const derivation of served.derivations) {
    if (derivation.field === 'address') replaceAddressState(address!, derivation, log)
    else if (path) replacePathState(path, derivation, log)
  }

  const cityParameter = input.city === undefined ? null : normalizePlaceName(collapseFieldWhitespace('city', input.city, log)) || null
  const { applied, warnings } = log.ordered()
  return {
    ok: true,
    value: {
      street: address?.street ?? null,
      city: cityParameter ?? address?.city ?? null,
      state: served.state,
      zip5: zip?.zip5 ?? null,
      zip4: zip?.zip4 ?? null,
      applied,
      warnings,
    },
  }
}
