// The query of GET /v1/portability/rates read into a request of the GET /v1/tax resolver: which
// input form, mapped onto the lookup's modes (address, ZIP, place, coordinates), and the response
// format. Every refusal is a 400 INVALID_INPUT naming the parameters.
import { invalidInput } from '../lookup/lookup-errors.ts'
import { readLookupRequest, type LookupQuery, type LookupRequest } from '../lookup/lookup-request.ts'

export const RATES_FORMATS = ['native', 'taxjar', 'avalara'] as const
export type RatesFormat = (typeof RATES_FORMATS)[number]

/** Accepted names of each coordinate, the documented one first. */
export const LATITUDE_NAMES = ['lat', 'latitude'] as const
export const LONGITUDE_NAMES = ['lng', 'longitude', 'lon', 'long'] as const

export const INPUT_FORMS = {
  address: 'address (one freeform line; city, state and zip may be sent beside it)',
  street: 'street with zip, or with city and state (a decomposed address; all four may be sent)',
  zip: 'zip alone (city and state optional)',
  city: 'city with state (a place; without state, the most populous place of that name)',
  coordinates: `latitude and longitude (${LATITUDE_NAMES.join(' or ')}; ${LONGITUDE_NAMES.join(', ')})`,
} as const
type InputForm = keyof typeof INPUT_FORMS

/** The query as the route's schema delivers it: strings, and coordinates already numbers. */
export type RatesQuery = {
  address?: string
  street?: string
  city?: string
  state?: string
  zip?: string
  format?: string
} & { [name in (typeof LATITUDE_NAMES)[number] | (typeof LONGITUDE_NAMES)[number]]?: number }

export type RatesRequest = { lookup: LookupRequest; format: RatesFormat }

const INPUT_PARAMETERS = ['address', 'street', 'city', 'state', 'zip', ...LATITUDE_NAMES, ...LONGITUDE_NAMES] as const

function formsError(problem: string, received: readonly string[]) {
  const forms = Object.values(INPUT_FORMS).join('; ')
  const what = received.length === 0 ? 'no input parameter was received' : `received ${received.join(', ')}`
  return invalidInput(`${problem} Input forms: ${forms}. ${what[0]!.toUpperCase()}${what.slice(1)}.`, { received, forms: INPUT_FORMS })
}

/** The one value of a coordinate sent under any of its names; two names at once are refused. */
function coordinate(query: RatesQuery, names: readonly (keyof RatesQuery)[], what: string): number | undefined {
  const sent = names.filter((name) => query[name] !== undefined)
  if (sent.length > 1) throw invalidInput(`Send the ${what} once; received ${sent.join(' and ')}.`, { received: sent })
  return sent.length === 1 ? (query[sent[0]!] as number) : undefined
}

function inputForm(query: RatesQuery, received: readonly string[], hasPoint: boolean): InputForm {
  const forms: InputForm[] = []
  if (query.address !== undefined) forms.push('address')
  if (query.street !== undefined) forms.push('street')
  if (hasPoint) forms.push('coordinates')
  if (forms.length > 1) throw formsError(`Give one input form, not ${forms.join(' and ')}.`, received)
  if (forms.length === 1) return forms[0]!
  if (query.zip !== undefined) return 'zip'
  if (query.city !== undefined) return 'city'
  throw formsError('Give one input form.', received)
}

function lookupQuery(form: InputForm, query: RatesQuery, lat: number | undefined, lng: number | undefined, received: readonly string[]): LookupQuery {
  const { address, street, city, zip } = query
  switch (form) {
    case 'address':
      return { address, city, zip }
    case 'street':
      if (zip === undefined && city === undefined) throw formsError('A street alone cannot be located: add zip, or city and state.', received)
      return { address: street, city, zip }
    case 'zip':
      return city === undefined ? { zip } : { city, zip }
    case 'city':
      return { location: city }
    case 'coordinates':
      if (city !== undefined || zip !== undefined) throw formsError('Coordinates are one input form: send them without city or zip.', received)
      if (lat === undefined || lng === undefined) throw invalidInput(`Coordinates need both latitude and longitude; received only the ${lat === undefined ? 'longitude' : 'latitude'}.`, { received })
      return { lat, lng }
  }
}

function readFormat(format: string | undefined): RatesFormat {
  if (format === undefined) return 'native'
  const known = RATES_FORMATS.find((f) => f === format.trim().toLowerCase())
  if (!known) throw invalidInput(`format "${format}" is not a format; valid formats: ${RATES_FORMATS.join(', ')}.`, { valid_values: RATES_FORMATS })
  return known
}

export function readRatesRequest(query: RatesQuery, now: number): RatesRequest {
  const received = INPUT_PARAMETERS.filter((name) => query[name] !== undefined)
  const lat = coordinate(query, LATITUDE_NAMES, 'latitude')
  const lng = coordinate(query, LONGITUDE_NAMES, 'longitude')
  const form = inputForm(query, received, lat !== undefined || lng !== undefined)
  const format = readFormat(query.format)
  // The full shape: every format is made from its rows and meta. No path: `state` is the only state the caller names.
  const reading = readLookupRequest(query.state ?? null, { ...lookupQuery(form, query, lat, lng, received), mode: 'full' }, now)
  if (!reading.ok) throw reading.error
  return { lookup: reading.request, format }
}
