// TaxJar's POST /v2/addresses/validate under /taxjar/v2 (taxjar/address-validation.ts), and its
// GET /v2/validation (EU VAT numbers), which is out of scope: a US sales-tax service answers it
// with a 404 that says so, in TaxJar's error shape.
import * as z from 'zod'
import { HttpError } from '../base/errors.ts'
import { AddressValidationBody, AddressValidationInput, validateAddress } from '../taxjar/address-validation.ts'
import { TAXJAR_ERRORS } from '../taxjar/taxjar-error.ts'
import { TAXJAR_BASE, TAXJAR_TAGS } from '../taxjar/taxjar-paths.ts'
import { defineRoute } from '../dispatch/route.ts'

const common = { tags: TAXJAR_TAGS, auth: 'key' as const, errorFormat: TAXJAR_ERRORS }

export const VAT_OUT_OF_SCOPE =
  'VAT number validation (GET /v2/validation) is out of scope: taxatlas serves US sales tax only. Validate EU VAT numbers with the European Commission\'s VIES service.'

export const taxjarValidateAddressRoute = defineRoute({
  ...common,
  method: 'POST',
  path: `${TAXJAR_BASE}/addresses/validate`,
  operationId: 'taxjarValidateAddress',
  summary: 'TaxJar: validate an address',
  description:
    "Checks the ZIP and its state (a wrong state is corrected to the ZIP's) and gives the ZIP's USPS preferred city; a city with its state and no ZIP gives every ZIP mailed under that name. Not checked, for want of a postal database: the street and house number (returned as parsed) and the ZIP+4 (5 digits are returned). `validation` says what was and was not checked.",
  body: AddressValidationInput,
  responses: {
    200: { description: 'Matching addresses.', schema: AddressValidationBody },
    400: { description: 'Nothing to validate by, a malformed ZIP, or a country other than the US.', schema: TAXJAR_ERRORS.schema },
    404: { description: 'No address matches: an unknown ZIP, or a city no ZIP is mailed under.', schema: TAXJAR_ERRORS.schema },
  },
}).handle(({ body, snapshot }) => ({ status: 200, body: validateAddress(body, snapshot) }))

export const taxjarVatRoute = defineRoute({
  ...common,
  method: 'GET',
  path: `${TAXJAR_BASE}/validation`,
  operationId: 'taxjarValidateVat',
  summary: 'TaxJar: VAT number validation (out of scope)',
  description: VAT_OUT_OF_SCOPE,
  query: z.object({ vat: z.string().optional() }),
  responses: { 404: { description: 'Always: out of scope.', schema: TAXJAR_ERRORS.schema } },
}).handle(() => {
  throw new HttpError('NOT_FOUND', VAT_OUT_OF_SCOPE)
})
