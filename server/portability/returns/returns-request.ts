// Reading GET /v1/portability/returns's query: a state taxatlas tracks, a period of calendar dates
// (`from` on or before `to`, at most MAX_PERIOD_DAYS long) and a format. Every value that cannot be
// read is one entry of the 422's `detail`, all reported together, each naming its parameter.
import { STATES } from '../../../sources/index.ts'
import type { ValidationDetail } from '../../http/validation.ts'
import { isCalendarDate } from '../../lookup/lookup-date.ts'
import { RETURN_FORMATS } from './returns-body.ts'

/** A return's period: a year at most (a leap year's 366 days). */
export const MAX_PERIOD_DAYS = 366

export type ReturnsQuery = { state?: string; from?: string; to?: string; format?: string }

export type ReturnsRequest = { state: string; from: string; to: string; format: (typeof RETURN_FORMATS)[number] }

export type ReturnsReading = { ok: true; request: ReturnsRequest } | { ok: false; detail: ValidationDetail[] }

const KNOWN_STATES = new Set(STATES.map((state) => state.code))
const DAY_MS = 86_400_000

export function readReturnsRequest(query: ReturnsQuery): ReturnsReading {
  const detail: ValidationDetail[] = []
  const fail = (name: keyof ReturnsQuery, msg: string, type = 'value_error') => {
    detail.push({ loc: ['query', name], msg, type, ...(query[name] === undefined ? {} : { input: query[name] }) })
    return null
  }
  const required = (name: 'state' | 'from' | 'to') => (query[name] === undefined || query[name] === '' ? fail(name, `${name} is required`, 'missing') : query[name]!)

  const stateText = required('state')
  const state = stateText === null ? null : stateText.trim().toUpperCase()
  if (state !== null && !KNOWN_STATES.has(state)) fail('state', `not a state code: ${JSON.stringify(stateText)} (a 2-letter USPS code of the 50 states, DC or PR)`)

  const date = (name: 'from' | 'to') => {
    const text = required(name)
    if (text === null) return null
    return isCalendarDate(text) ? text : fail(name, `${name} must be a calendar date, YYYY-MM-DD`)
  }
  const from = date('from')
  const to = date('to')
  if (from && to) {
    if (to < from) fail('to', `to (${to}) is before from (${from})`)
    else if (days(from, to) > MAX_PERIOD_DAYS) fail('to', `the period ${from} to ${to} is ${days(from, to)} days long; a return covers at most ${MAX_PERIOD_DAYS} days`)
  }

  const format = query.format === undefined ? 'json' : (RETURN_FORMATS as readonly string[]).includes(query.format) ? (query.format as ReturnsRequest['format']) : fail('format', `unknown format ${JSON.stringify(query.format)}; valid values: ${RETURN_FORMATS.join(', ')}`)

  if (detail.length) return { ok: false, detail }
  return { ok: true, request: { state: state!, from: from!, to: to!, format: format! } }
}

/** Days from `from` through `to`, both counted. */
const days = (from: string, to: string) => (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1
