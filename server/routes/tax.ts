// GET /v1/tax/{state} (api.md "GET /v1/tax/{state}"): the rate lookup by address, ZIP, place or coordinates. The schema
// takes mode, strict, as_of and period as plain strings: their refusals are 400 INVALID_INPUT
// (spec 7), checked by the lookup; the schema's own failures are 422.
import * as z from 'zod'
import { ErrorBody } from '../base/errors.ts'
import { simpleBodyText } from '../lookup/answer-text.ts'
import { lookupSources } from '../lookup/history-source.ts'
import { INPUT_MODES } from '../lookup/lookup-errors.ts'
import { readLookupRequest, RESPONSE_SHAPES, STRICT_OFF, STRICT_ON } from '../lookup/lookup-request.ts'
import { lookupTax } from '../lookup/resolve-lookup.ts'
import { FullLookupBody, SimpleLookupBody } from '../lookup/tax-response.ts'
import { defineRoute } from '../dispatch/route.ts'
import { JsonText } from '../http/respond.ts'
import { billingOf } from './caller-billing.ts'
import { coordinate } from './coordinate-param.ts'

export const TaxParams = z.object({
  state: z.string().min(1).max(60).describe('2-letter state code, any case; a wrong or placeholder state is replaced by the ZIP\'s (api.md "Normalization")'),
})

export const TaxQuery = z.object({
  address: z.string().optional().describe('address mode: a freeform address, e.g. "123 Main St, Seattle, WA 98101"'),
  city: z.string().optional().describe('address mode: the city, used to choose among the ZIP\'s jurisdictions'),
  zip: z.string().optional().describe('ZIP mode (or address mode): 5-digit ZIP or ZIP+4; a ZIP+4 is answered exactly where the state\'s boundary file holds it, else as its ZIP with a warning'),
  location: z.string().max(200).optional().describe('place mode: a place name with an optional state, e.g. "Springfield, IL", "Saint Paul MN"'),
  lat: coordinate('lat', 90),
  lng: coordinate('lng', 180),
  mode: z.string().optional().describe(`response shape: ${RESPONSE_SHAPES.join(' (default) or ')}; anything else is 400`),
  strict: z.string().optional().describe(`${STRICT_ON.join(', ')}: refuse input that needs normalization (400 with error.correction); ${STRICT_OFF.join(', ')} or omitted: repair and disclose`),
  as_of: z.string().optional().describe('answer for this date, YYYY-MM-DD'),
  period: z.string().optional().describe('answer for the first day of this quarter: YYYYQ (20262) or YYYYQn (2026Q2); not with as_of'),
})

const error = (description: string) => ({ description, schema: ErrorBody })

export const taxRoute = defineRoute({
  method: 'GET',
  path: '/v1/tax/:state',
  operationId: 'getTaxRate',
  summary: 'Sales-tax rates for an address, ZIP, place or point',
  description: [
    `Exactly one input mode per call: ${Object.values(INPUT_MODES).join('; ')}.`,
    'The ZIP is authoritative for the state: a wrong or placeholder path state is replaced and disclosed (normalization rule state_derived_from_zip).',
    'An unknown ZIP is a 404, never 0%. A state without a sales tax (DE, NH, OR) answers 200 with zero rates.',
    'mode=full adds rows, resolved_place, ambiguous_zip5 and billing. Header X-Service-Mode names the shape served.',
    'With an upstream geocoder configured (TAXATLAS_GEOCODER_URL), an address with a street is geocoded first (resolved_via census_geocoder).',
  ].join(' '),
  tags: ['lookup'],
  auth: 'key',
  countsAsLookup: true,
  cachesReplies: true,
  params: TaxParams,
  query: TaxQuery,
  responses: {
    200: {
      description: 'The rates (simple shape by default, full shape with mode=full).',
      schema: z.union([SimpleLookupBody, FullLookupBody]),
      headers: { 'X-Service-Mode': 'simple or full: the shape served' },
    },
    400: error('INVALID_INPUT: no or several input modes, a bad mode/strict/as_of/period value (valid_values listed), input strict mode refuses (error.correction), coordinates outside the state, or a date before the data held (available_from; available_through is the effective date of the newest data, and later dates are answered).'),
    404: error('NOT_FOUND: the ZIP is not known, its rate is withheld (the source figure failed validation), or the place or point could not be resolved.'),
    503: {
      ...error('SERVICE_UNAVAILABLE: no rate data is in service for the state (error.state, error.status). GEOCODER_UNAVAILABLE: the configured upstream geocoder cannot be reached (error.retry_after_seconds).'),
      headers: { 'Retry-After': 'GEOCODER_UNAVAILABLE: seconds to wait before retrying' },
    },
  },
}).handle(async ({ params, query, snapshot, caller, settings, now }) => {
  const reading = readLookupRequest(params.state, query, now)
  if (!reading.ok) throw reading.error
  const sources = lookupSources(snapshot, settings.geocoder)
  const answer = await lookupTax(reading.request, sources, () => billingOf(caller))
  const body = reading.request.shape === 'simple' ? new JsonText(simpleBodyText(answer as SimpleLookupBody)) : answer
  // A full answer carries the caller's billing, and an address may be answered from what an
  // upstream geocoder said (or did not say): only simple answers from the snapshot alone are the
  // same for every caller and every repeat.
  const cacheable = reading.request.shape === 'simple' && !(settings.geocoder && reading.request.input.mode === 'address')
  return { status: 200, body, headers: { 'X-Service-Mode': reading.request.shape }, cacheable }
})
