// TaxJar's customer (/v2/customers): the body as sent, read into a CustomerRecord, and the record
// in TaxJar's response shape. A customer's exemption (wholesale, government, other) makes order
// tax zero in its exempt regions, or everywhere when it lists none; non_exempt changes nothing.
import * as z from 'zod'
import { validationError, type ValidationDetail } from '../http/validation.ts'
import { cleanText, stateOf, zipOf, type Fail } from '../sale/field-values.ts'
import { NumberLike, Text } from '../sale/lenient-fields.ts'
import { CUSTOMER_EXEMPTION_TYPES, type CustomerRecord } from '../store/customers.ts'

export const MAX_EXEMPT_REGIONS = 60

const ExemptRegionInput = z.object({ country: Text, state: Text }).strict()

export const TaxjarCustomerInput = z
  .object({
    customer_id: NumberLike.optional().describe('required on create; at most 255 characters'),
    exemption_type: Text.describe(`required on create: ${CUSTOMER_EXEMPTION_TYPES.join(', ')}`),
    name: Text.describe('required on create'),
    exempt_regions: z.array(ExemptRegionInput).max(MAX_EXEMPT_REGIONS).nullable().optional().describe('US states the exemption holds in; none: everywhere'),
    country: Text,
    state: Text,
    zip: NumberLike.nullable().optional(),
    city: Text,
    street: Text,
  })
  .strict()
  .meta({ id: 'TaxjarCustomerInput' })
export type TaxjarCustomerInput = z.infer<typeof TaxjarCustomerInput>

export const TaxjarCustomer = z
  .object({
    customer_id: z.string(),
    exemption_type: z.enum(CUSTOMER_EXEMPTION_TYPES),
    exempt_regions: z.array(z.object({ country: z.literal('US'), state: z.string() })),
    name: z.string(),
    country: z.string().nullable(),
    state: z.string().nullable(),
    zip: z.string().nullable(),
    city: z.string().nullable(),
    street: z.string().nullable(),
  })
  .meta({ id: 'TaxjarCustomer' })
export type TaxjarCustomer = z.infer<typeof TaxjarCustomer>

const US = new Set(['US', 'USA', 'UNITED STATES', 'UNITED STATES OF AMERICA'])
const MAX_ID = 255

/** The record a body makes, laid over `base` (an update keeps what it does not send); a 422 names every problem. */
export function customerOfBody(input: TaxjarCustomerInput, base: CustomerRecord | null): CustomerRecord {
  const detail: ValidationDetail[] = []
  const fail: Fail = (loc, msg, value) => detail.push({ loc: ['body', ...loc], msg, type: 'value_error', ...(value === undefined ? {} : { input: value }) })
  const sent = <K extends keyof TaxjarCustomerInput>(field: K) => input[field] !== undefined
  const text = (field: keyof TaxjarCustomerInput) => cleanText(input[field], [field], fail)

  const customerId = base?.customerId ?? (input.customer_id === undefined ? '' : String(input.customer_id).trim())
  if (!customerId) fail(['customer_id'], 'customer_id is required')
  else if (customerId.length > MAX_ID || /[\u0000-\u001f\u007f/]/.test(customerId)) fail(['customer_id'], `customer_id must be at most ${MAX_ID} characters, without control characters or /`, input.customer_id)

  let exemptionType = base?.exemptionType ?? null
  if (sent('exemption_type') || !base) {
    const value = text('exemption_type')?.toLowerCase()
    if (!value) fail(['exemption_type'], `exemption_type is required: ${CUSTOMER_EXEMPTION_TYPES.join(', ')}`)
    else if (!(CUSTOMER_EXEMPTION_TYPES as readonly string[]).includes(value)) fail(['exemption_type'], `exemption_type must be one of ${CUSTOMER_EXEMPTION_TYPES.join(', ')}`, input.exemption_type)
    else exemptionType = value as CustomerRecord['exemptionType']
  }

  let name = base?.name ?? null
  if (sent('name') || !base) {
    name = text('name')
    if (!name) fail(['name'], 'name is required')
  }

  let exemptRegions = base?.exemptRegions ?? []
  if (sent('exempt_regions')) {
    const states = new Set<string>()
    ;(input.exempt_regions ?? []).forEach((region, i) => {
      const loc = ['exempt_regions', i]
      const country = cleanText(region.country, [...loc, 'country'], fail)?.toUpperCase() ?? 'US'
      if (!US.has(country)) return fail([...loc, 'country'], `country ${country}: only US exempt regions are supported`, region.country)
      const state = stateOf(cleanText(region.state, [...loc, 'state'], fail), [...loc, 'state'], true, fail)
      if (state) states.add(state)
    })
    exemptRegions = [...states].sort()
  }

  const keep = <K extends 'country' | 'state' | 'city' | 'street'>(field: K): string | null => (sent(field) ? text(field) : (base?.[field] ?? null))
  const country = keep('country')?.toUpperCase() ?? null
  const state = sent('state') ? stateOf(text('state'), ['state'], false, fail) : (base?.state ?? null)
  const zip = sent('zip') ? zipOf(input.zip ?? undefined, ['zip'], false, fail) : (base?.zip ?? null)

  if (detail.length > 0) throw validationError(detail)
  return { customerId, exemptionType: exemptionType!, name: name!, exemptRegions, country, state, zip, city: keep('city'), street: keep('street') }
}

export const taxjarCustomer = (record: CustomerRecord): TaxjarCustomer => ({
  customer_id: record.customerId,
  exemption_type: record.exemptionType,
  exempt_regions: record.exemptRegions.map((state) => ({ country: 'US' as const, state })),
  name: record.name,
  country: record.country,
  state: record.state,
  zip: record.zip,
  city: record.city,
  street: record.street,
})
