// The query of GET /v1/tax/{state} read into one request: which input mode, which response shape,
// strict or permissive, and the date. Every refusal here is a 400 INVALID_INPUT.
import type { HttpError } from '../base/errors.ts'
import { INPUT_PARAMETERS, invalidInput, modeCountError } from './lookup-errors.ts'
import { readLookupDate, type LookupDate } from './lookup-date.ts'

export const RESPONSE_SHAPES = ['simple', 'full'] as const
export type ResponseShape = (typeof RESPONSE_SHAPES)[number]

export const STRICT_ON = ['on', 'true', '1'] as const
export const STRICT_OFF = ['off', 'false', '0'] as const

/** The query as the route's schema delivers it: strings, and lat/lng already numbers. */
export type LookupQuery = {
  address?: string
  city?: string
  zip?: string
  location?: string
  lat?: number
  lng?: number
  mode?: string
  strict?: string
  as_of?: string
  period?: string
}

export type LookupInput =
  | { mode: 'address'; address?: string; city?: string; zip?: string }
  | { mode: 'zip'; zip: string }
  | { mode: 'place'; location: string }
  | { mode: 'coordinates'; lat: number; lng: number }

export type LookupRequest = {
  /**
   * the path segment as sent (any case; may be a state name or a placeholder such as "-"); null
   * when the caller names no state apart from its input (GET /v1/portability/rates without `state`)
   */
  pathState: string | null
  input: LookupInput
  shape: ResponseShape
  strict: boolean
  date: LookupDate
}

export type RequestReading = { ok: true; request: LookupRequest } | { ok: false; error: HttpError }

function readInput(query: LookupQuery): LookupInput | HttpError {
  const received = INPUT_PARAMETERS.filter((name) => query[name] !== undefined)
  const has = (name: (typeof INPUT_PARAMETERS)[number]) => query[name] !== undefined
  const modes: LookupInput['mode'][] = []
  if (has('address') || (has('city') && has('zip'))) modes.push('address')
  else if (has('zip')) modes.push('zip')
  if (has('location')) modes.push('place')
  if (has('lat') || has('lng')) modes.push('coordinates')
  if (modes.length !== 1) return modeCountError(received)
  if (has('city') && !has('address') && !has('zip')) return modeCountError(received)
  switch (modes[0]) {
    case 'address':
      return { mode: 'address', address: query.address, city: query.city, zip: query.zip }
    case 'zip':
      return { mode: 'zip', zip: query.zip! }
    case 'place':
      return { mode: 'place', location: query.location! }
    default:
      if (query.lat === undefined || query.lng === undefined) {
        return invalidInput(`Coordinates need both lat and lng; received only ${has('lat') ? 'lat' : 'lng'}.`, { received })
      }
      return { mode: 'coordinates', lat: query.lat, lng: query.lng }
  }
}

function readShape(mode: string | undefined): ResponseShape | HttpError {
  if (mode === undefined) return 'simple'
  const shape = RESPONSE_SHAPES.find((s) => s === mode.trim().toLowerCase())
  return shape ?? invalidInput(`mode "${mode}" is not a response mode; valid modes: ${RESPONSE_SHAPES.join(', ')}.`, { valid_values: RESPONSE_SHAPES })
}

function readStrict(strict: string | undefined): boolean | HttpError {
  if (strict === undefined) return false
  const value = strict.trim().toLowerCase()
  if ((STRICT_ON as readonly string[]).includes(value)) return true
  if ((STRICT_OFF as readonly string[]).includes(value)) return false
  const accepted = [...STRICT_ON, ...STRICT_OFF]
  return invalidInput(
    `strict "${strict}" is not accepted; use ${STRICT_ON.join(', ')} (strict) or ${STRICT_OFF.join(', ')} (permissive, the default).`,
    { valid_values: accepted },
  )
}

export function readLookupRequest(pathState: string | null, query: LookupQuery, now: number): RequestReading {
  const input = readInput(query)
  if ('status' in input) return { ok: false, error: input }
  const shape = readShape(query.mode)
  if (typeof shape !== 'string') return { ok: false, error: shape }
  const strict = readStrict(query.strict)
  if (typeof strict !== 'boolean') return { ok: false, error: strict }
  const date = readLookupDate(query.as_of, query.period, now)
  if (!date.ok) return { ok: false, error: invalidInput(date.reason) }
  // Strict mode is about repairing address text; a point has none (api.md "GET /v1/tax/{state}": accepted and ignored).
  return { ok: true, request: { pathState, input, shape, strict: input.mode === 'coordinates' ? false : strict, date: date.date } }
}
