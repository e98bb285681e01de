// TaxJar's GET /v2/rates/:zip under /taxjar/v2, for the `ratesForLocation(zip, {street, city,
// state, country})` of TaxJar clients: the GET /v1/tax resolver (a street and city choose among the
// ZIP's jurisdictions), answered as TaxJar's `rate` object, errors in TaxJar's shape.
import * as z from 'zod'
import { lookupSources } from '../lookup/history-source.ts'
import { invalidInput } from '../lookup/lookup-errors.ts'
import { readLookupRequest } from '../lookup/lookup-request.ts'
import { lookupTax } from '../lookup/resolve-lookup.ts'
import { TaxjarRatesBody, taxjarRates } from '../portability/rates-taxjar.ts'
import { TAXJAR_ERRORS } from '../taxjar/taxjar-error.ts'
import { TAXJAR_BASE, TAXJAR_TAGS } from '../taxjar/taxjar-paths.ts'
import { defineRoute } from '../dispatch/route.ts'
import { billingOf } from './caller-billing.ts'

/** Plugins send `false` or nothing for a field they lack. */
const absent = (value: string | undefined): boolean => value === undefined || value.trim() === '' || value.trim().toLowerCase() === 'false'
const given = (value: string | undefined): string | undefined => (absent(value) ? undefined : value)

export const taxjarRatesRoute = defineRoute({
  method: 'GET',
  path: `${TAXJAR_BASE}/rates/:zip`,
  operationId: 'taxjarRatesForLocation',
  summary: 'TaxJar: rates for a location',
  description:
    "TaxJar's rate object for a US ZIP (5 digits or ZIP+4); street and city choose among the ZIP's jurisdictions, and with a geocoder configured a street is geocoded. Rates are 5-decimal strings.",
  tags: TAXJAR_TAGS,
  auth: 'key',
  countsAsLookup: true,
  errorFormat: TAXJAR_ERRORS,
  params: z.object({ zip: z.string().min(1).max(40).describe('5-digit ZIP or ZIP+4') }),
  query: z.object({
    country: z.string().optional().describe('US only (the default)'),
    state: z.string().optional().describe("2-letter code; the ZIP's state is served when they disagree"),
    city: z.string().optional(),
    street: z.string().optional(),
  }),
  responses: {
    200: { description: "TaxJar's rate object.", schema: TaxjarRatesBody },
    400: { description: 'A malformed ZIP, or a country other than US.', schema: TAXJAR_ERRORS.schema },
    404: { description: 'An unknown ZIP (never answered as 0%).', schema: TAXJAR_ERRORS.schema },
    503: {
      description: 'The configured upstream geocoder cannot be reached (a street was sent); see Retry-After.',
      schema: TAXJAR_ERRORS.schema,
      headers: { 'Retry-After': 'seconds to wait before retrying' },
    },
  },
}).handle(async ({ params, query, snapshot, caller, settings, now }) => {
  const country = given(query.country)?.trim().toUpperCase()
  if (country && country !== 'US' && country !== 'USA') throw invalidInput(`Only US rates are served; country ${query.country} is not supported.`, { field: 'country' })
  const street = given(query.street)
  const city = given(query.city)
  const reading = readLookupRequest(given(query.state) ?? null, { address: street, city, zip: params.zip, mode: 'simple' }, now)
  if (!reading.ok) throw reading.error
  const sources = lookupSources(snapshot, settings.geocoder)
  const { rate } = await lookupTax(reading.request, sources, () => billingOf(caller))
  return { status: 200, body: taxjarRates(rate) }
})
