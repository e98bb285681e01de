// GET /v1/portability/rates (api.md "GET /v1/portability/rates"): the rate lookup for migrating integrations. Its input
// forms are mapped onto the GET /v1/tax resolver (the same repairs, candidates and warnings); the
// answer is shaped as `format` asks (ours, TaxJar's or Avalara's), at the location the state's
// sourcing rule names for the seller sent.
import * as z from 'zod'
import { ErrorBody } from '../base/errors.ts'
import { lookupSources } from '../lookup/history-source.ts'
import { ZipEntries } from '../lookup/zip-entries.ts'
import { AvalaraRatesBody } from '../portability/rates-avalara.ts'
import { lookupRates } from '../portability/rates-lookup.ts'
import { NativeRatesBody } from '../portability/rates-native.ts'
import { INPUT_FORMS, RATES_FORMATS, readRatesRequest } from '../portability/rates-request.ts'
import { readSeller } from '../portability/rates-seller.ts'
import { statesSourced } from '../order-tax/sourcing.ts'
import { TaxjarRatesBody } from '../portability/rates-taxjar.ts'
import { defineRoute } from '../dispatch/route.ts'
import { billingOf } from './caller-billing.ts'
import { coordinate } from './coordinate-param.ts'

const latitude = (name: string) => coordinate(name, 90).describe(`latitude in decimal degrees (-90..90)${name === 'lat' ? '' : '; same as lat'}`)
const longitude = (name: string) => coordinate(name, 180).describe(`longitude in decimal degrees (-180..180)${name === 'lng' ? '' : '; same as lng'}`)

export const PortabilityRatesQuery = z.object({
  address: z.string().optional().describe('freeform address, e.g. "55 Trinity Ave SW, Atlanta, GA 30303"'),
  street: z.string().optional().describe('decomposed address: the street line, with zip, or city and state'),
  city: z.string().optional().describe('decomposed address: the city; with state alone, a place lookup'),
  state: z.string().optional().describe("2-letter code or name; a state the ZIP contradicts is replaced by the ZIP's (disclosed)"),
  zip: z.string().optional().describe('5-digit ZIP or ZIP+4; alone, a ZIP lookup'),
  lat: latitude('lat'),
  latitude: latitude('latitude'),
  lng: longitude('lng'),
  longitude: longitude('longitude'),
  lon: longitude('lon'),
  long: longitude('long'),
  format: z.string().optional().describe(`response shape: ${RATES_FORMATS.join(' (default), ')}; anything else is 400`),
  seller_state: z.string().optional().describe("the seller's state (code or name): an in-state sale in an origin-sourcing state is answered at seller_zip"),
  seller_zip: z.string().optional().describe("the seller's ZIP; names seller_state when that is not sent"),
})

const error = (description: string) => ({ description, schema: ErrorBody })

export const portabilityRatesRoute = defineRoute({
  method: 'GET',
  path: '/v1/portability/rates',
  operationId: 'getPortabilityRates',
  summary: 'Sales-tax rates for migrating integrations, in our, TaxJar\'s or Avalara\'s shape',
  description: [
    `One input form per call: ${Object.values(INPUT_FORMS).join('; ')}.`,
    'Resolved exactly as GET /v1/tax/{state}. format=native (default) answers rates as 5-decimal strings with components and sourcing;',
    "format=taxjar answers TaxJar's {rate} object (strings); format=avalara answers Avalara's {totalRate, rates[]} with fractions as JSON numbers.",
    `With seller_state/seller_zip: an interstate sale is answered at the destination; an in-state sale in an origin-sourcing state (${statesSourced('origin').join(', ')}) at the seller's ZIP;`,
    `${statesSourced('mixed').join(' and ')} (mixed sourcing) at the destination with a mixed_sourcing warning.`,
  ].join(' '),
  tags: ['portability'],
  auth: 'key',
  countsAsLookup: true,
  query: PortabilityRatesQuery,
  responses: {
    200: { description: 'The rates, shaped by format.', schema: z.union([NativeRatesBody, TaxjarRatesBody, AvalaraRatesBody]) },
    400: error('INVALID_INPUT: no input form or several, a street alone, a bad format (valid_values listed), an unusable field (field), an unknown or contradictory seller_state/seller_zip, or an in-state sale in an origin state without seller_zip.'),
    404: error('NOT_FOUND: the address, ZIP, place or point could not be resolved (an unknown ZIP is never 0%).'),
    503: {
      ...error('GEOCODER_UNAVAILABLE: the configured upstream geocoder cannot be reached (error.retry_after_seconds). SERVICE_UNAVAILABLE: no rate data is in service for the state.'),
      headers: { 'Retry-After': 'GEOCODER_UNAVAILABLE: seconds to wait before retrying' },
    },
  },
}).handle(async ({ query, snapshot, caller, settings, now }) => {
  const request = readRatesRequest(query, now)
  const seller = readSeller(query.seller_state, query.seller_zip, new ZipEntries(snapshot))
  const sources = lookupSources(snapshot, settings.geocoder)
  return { status: 200, body: await lookupRates(request, seller, sources, () => billingOf(caller)) }
})
