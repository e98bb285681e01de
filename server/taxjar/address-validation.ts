// TaxJar's POST /v2/addresses/validate from what the service holds: the address parser and its
// repairs (GET /v1/tax's normalization), the ZIPs of the snapshot in service with their USPS
// preferred city and state, and the USPS city names ZIPs are mailed under. What it checks: that
// the ZIP exists and in which state (a wrong state is corrected to the ZIP's), the ZIP's mailing
// city, and for a city without a ZIP the ZIPs mailed under that name. What it cannot check
// without a postal database: that the street and house number exist, and the ZIP+4 — the street
// comes back as parsed and normalized, the ZIP as its 5 digits.
import * as z from 'zod'
import { HttpError } from '../base/errors.ts'
import { normalizeAddressInput } from '../lookup/address/index.ts'
import { invalidInput } from '../lookup/lookup-errors.ts'
import { factsOf, type SnapshotView } from '../lookup/snapshot-facts.ts'
import { ZipEntries } from '../lookup/zip-entries.ts'
import { stateCodeOf } from '../sale/state-code.ts'
import { NumberLike, Text } from '../sale/lenient-fields.ts'

export const AddressValidationInput = z
  .object({ country: Text.describe('US (default)'), state: Text, zip: NumberLike.nullable().optional(), city: Text, street: Text.describe('a street, or the whole address on one line') })
  .strict()
  .meta({ id: 'TaxjarAddressInput' })
export type AddressValidationInput = z.infer<typeof AddressValidationInput>

const ValidatedAddress = z.object({
  zip: z.string().describe('5 digits: the ZIP+4 is not validated'),
  street: z.string().nullable().describe('as parsed and normalized (upper case); not validated'),
  state: z.string(),
  country: z.literal('US'),
  city: z.string().describe("the ZIP's USPS preferred city"),
})

export const AddressValidationBody = z
  .object({
    addresses: z.array(ValidatedAddress),
    validation: z
      .object({ checked: z.array(z.string()), not_checked: z.array(z.string()), repairs: z.array(z.string()) })
      .describe('taxatlas: what was and was not validated, and what was repaired in the input'),
  })
  .meta({ id: 'TaxjarAddresses' })
export type AddressValidationBody = z.output<typeof AddressValidationBody>

const NOT_CHECKED = [
  'street and house number: returned as parsed, not checked against a postal database',
  'ZIP+4: not validated; the 5-digit ZIP is returned',
]

const US = new Set(['US', 'USA', 'UNITED STATES', 'UNITED STATES OF AMERICA'])

/** Plugins send `false` for a field they lack. */
const given = (value: unknown): string | undefined => {
  if (typeof value === 'number') return String(value)
  if (typeof value !== 'string') return undefined
  const text = value.trim()
  return text === '' || text.toLowerCase() === 'false' ? undefined : text
}

export function validateAddress(input: AddressValidationInput, view: SnapshotView): AddressValidationBody {
  const country = given(input.country)?.toUpperCase()
  if (country && !US.has(country)) throw invalidInput(`country ${country}: only US addresses are validated.`, { field: 'country' })
  const repairs: string[] = []
  let zip = given(input.zip)
  // Spreadsheets drop leading zeros: 501 is 00501.
  if (zip && /^\d{3,4}$/.test(zip)) {
    repairs.push(`ZIP "${zip}" read as ${zip.padStart(5, '0')} (leading zeros restored)`)
    zip = zip.padStart(5, '0')
  }
  const state = given(input.state)
  const city = given(input.city)
  const street = given(input.street)
  const zips = new ZipEntries(view)

  if (!zip && !street) {
    if (!city || !state) throw invalidInput('Send a zip, a street (the whole address may be on one line), or a city with its state.', { field: 'zip' })
    return byCity(view, city, state, repairs)
  }
  const zip5 = zip ? /^(\d{5})(?:-?\d{4})?$/.exec(zip)?.[1] : undefined
  if (zip5 && zips.of(zip5).length === 0) throw unknownZip(view, zip5)
  const result = normalizeAddressInput({ pathState: state, address: street, city, zip }, zips.facts)
  if (!result.ok) throw invalidInput(`${result.reason}.`, { field: result.field === 'address' ? 'street' : result.field })
  const value = result.value
  repairs.push(...value.warnings)
  if (!value.zip5) {
    if (!value.city || !value.state) throw invalidInput('The address has no ZIP, and no city with a state to find one by.', { field: 'zip' })
    return byCity(view, value.city, value.state, repairs, value.street)
  }
  const entries = zips.of(value.zip5)
  if (entries.length === 0) throw unknownZip(view, value.zip5)
  const inState = entries.filter((entry) => entry.state === value.state)
  return {
    addresses: (inState.length > 0 ? inState : entries).map((entry) => ({ zip: entry.zip, street: value.street, state: entry.state, country: 'US' as const, city: entry.city })),
    validation: { checked: ['the ZIP exists and the state it lies in', "the ZIP's USPS preferred city"], not_checked: NOT_CHECKED, repairs },
  }
}

const unknownZip = (view: SnapshotView, zip5: string) =>
  new HttpError('NOT_FOUND', `ZIP ${zip5} is not known${factsOf(view).withheld(zip5) ? ' (withheld from the data in service)' : ''}: no address matches.`)

/** Every ZIP mailed under a city name, in ZIP order. */
function byCity(view: SnapshotView, city: string, stateText: string, repairs: string[], street: string | null = null): AddressValidationBody {
  const state = stateCodeOf(stateText)
  if (!state) throw invalidInput(`state "${stateText}" is not a US state code or name.`, { field: 'state' })
  const entries = factsOf(view)
    .zipsMailedAs(state, city)
    .map((i) => view.rates.entryAt(i))
  if (entries.length === 0) throw new HttpError('NOT_FOUND', `No ZIP of ${state} is mailed as "${city}": no address matches.`)
  return {
    addresses: entries.map((entry) => ({ zip: entry.zip, street, state: entry.state, country: 'US' as const, city: entry.city })),
    validation: { checked: [`the ZIPs mailed as "${city}" in ${state}`], not_checked: NOT_CHECKED, repairs },
  }
}
