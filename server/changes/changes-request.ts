// Reading GET /v1/changes's query into a typed request. Every value that cannot be read is one
// entry of a 422's `detail`, all reported together, each naming the parameter and what it accepts.
import { STATES } from '../../sources/index.ts'
import type { ValidationDetail } from '../http/validation.ts'
import { isCalendarDate } from '../lookup/lookup-date.ts'
import { readCursor, type ChangeCursor } from './change-cursor.ts'

export const INCLUDE_VALUES = ['zips'] as const
export const DEFAULT_LIMIT = 100
export const MAX_LIMIT = 1000

/** A snapshot id as the pipeline names snapshots: its generation time with `:` and `.` as `-`. */
const SNAPSHOT_ID = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/

/** `snapshot`: first seen in a snapshot published after this one; `date`: first seen on or after this day (UTC). */
export type Since = { snapshot: string } | { date: string }

export const IMPACT_VALUES = ['true', 'false'] as const

export type ChangesQuery = { states?: string; from?: string; to?: string; since?: string; include?: string; impact?: string; limit?: string; cursor?: string }

export type ChangesRequest = {
  /** the states asked for; null: none named (the account's nexus states, or every state) */
  states: string[] | null
  from: string | null
  to: string | null
  since: Since | null
  zips: boolean
  /** each change with the account's exposure to it */
  impact: boolean
  limit: number
  after: ChangeCursor | null
}

export type RequestReading = { ok: true; request: ChangesRequest } | { ok: false; detail: ValidationDetail[] }

const KNOWN_STATES = new Set(STATES.map((state) => state.code))

export function readChangesRequest(query: ChangesQuery): RequestReading {
  const detail: ValidationDetail[] = []
  const fail = (name: keyof ChangesQuery, msg: string) => {
    detail.push({ loc: ['query', name], msg, type: 'value_error', input: query[name] })
    return null
  }

  const states = query.states === undefined ? null : readStates(query.states, (msg) => fail('states', msg))
  const date = (name: 'from' | 'to') => {
    const text = query[name]
    if (text === undefined) return null
    return isCalendarDate(text) ? text : fail(name, `${name} must be a calendar date, YYYY-MM-DD`)
  }
  const from = date('from')
  const to = date('to')
  if (from && to && from > to) fail('from', `from (${from}) is after to (${to})`)

  let since: Since | null = null
  if (query.since !== undefined) {
    if (SNAPSHOT_ID.test(query.since)) since = { snapshot: query.since }
    else if (isCalendarDate(query.since)) since = { date: query.since }
    else fail('since', 'since must be a snapshot id (e.g. 2026-11-21T03-00-00-000Z) or a calendar date, YYYY-MM-DD')
  }

  let zips = false
  if (query.include !== undefined) {
    for (const value of query.include.split(',').map((v) => v.trim())) {
      if ((INCLUDE_VALUES as readonly string[]).includes(value)) zips = true
      else fail('include', `unknown include value ${JSON.stringify(value)}; valid values: ${INCLUDE_VALUES.join(', ')}`)
    }
  }

  let impact = false
  if (query.impact !== undefined) {
    if ((IMPACT_VALUES as readonly string[]).includes(query.impact)) impact = query.impact === 'true'
    else fail('impact', `impact must be ${IMPACT_VALUES.join(' or ')}`)
  }

  let limit = DEFAULT_LIMIT
  if (query.limit !== undefined) {
    const n = /^\d{1,7}$/.test(query.limit) ? Number(query.limit) : NaN
    if (n >= 1 && n <= MAX_LIMIT) limit = n
    else fail('limit', `limit must be a whole number from 1 to ${MAX_LIMIT}`)
  }

  const after = query.cursor === undefined ? null : (readCursor(query.cursor) ?? fail('cursor', 'cursor is not one this service gave (pass next_cursor from the previous page as is)'))

  if (detail.length) return { ok: false, detail }
  return { ok: true, request: { states, from, to, since, zips, impact, limit, after } }
}

/** `GA,mn` → [GA, MN]: 2-letter codes in any case, comma-separated, each of a state taxatlas tracks. */
function readStates(text: string, fail: (msg: string) => null): string[] | null {
  const codes = text.split(',').map((code) => code.trim().toUpperCase())
  const unknown = codes.filter((code) => !KNOWN_STATES.has(code))
  if (unknown.length) return fail(`not a state code: ${unknown.map((code) => JSON.stringify(code)).join(', ')} (2-letter USPS codes of the 50 states, DC and PR, comma-separated)`)
  return [...new Set(codes)].sort()
}
