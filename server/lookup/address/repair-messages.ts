// The human-readable line for each applied repair (appended to meta.warnings by the caller).

export type InputField = 'state' | 'address' | 'city' | 'zip'

const FIELD_LABEL: Record<InputField, string> = {
  state: 'the state parameter',
  address: 'the address',
  city: 'the city',
  zip: 'the zip parameter',
}

export const whitespaceMessage = (field: InputField): string => `Collapsed redundant whitespace in ${FIELD_LABEL[field]}.`

export function zip4SuffixMessage(field: InputField, written: string, served: string, repeatedIdentically: boolean): string {
  return repeatedIdentically
    ? `ZIP "${written}" in ${FIELD_LABEL[field]} repeats its +4 suffix; served ${served}.`
    : `ZIP "${written}" in ${FIELD_LABEL[field]} has more than one +4 suffix; kept the first and served ${served}.`
}

export const countryTokenMessage = (field: InputField, token: string): string =>
  `Removed the country "${token}" from the end of ${FIELD_LABEL[field]}.`

export const stateNameMessage = (field: InputField, written: string, code: string): string =>
  `State "${written}" in ${FIELD_LABEL[field]} served as ${code}.`

export const streetDuplicateMessage = (field: InputField, fragments: readonly string[]): string =>
  `Street fragment ${fragments.map((f) => `"${f}"`).join(', ')} was repeated in ${FIELD_LABEL[field]}; served one copy.`

export const quotedState = (submitted: string): string => (submitted === '' ? '(empty)' : `"${submitted}"`)

export type StateDerivation = { field: 'state' | 'address'; submitted: string; usable: boolean; derived: string; zip: string }

export function stateFromZipMessage({ field, submitted, usable, derived, zip }: StateDerivation): string {
  const where = field === 'address' ? ' in the address' : ''
  return usable
    ? `State ${quotedState(submitted)}${where} does not match ZIP ${zip} (${derived}); served ${derived}, the ZIP's state.`
    : `State ${quotedState(submitted)}${where} is not a state; served ${derived}, the state of ZIP ${zip}.`
}
