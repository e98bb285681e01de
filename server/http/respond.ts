// Writing responses: every body is JSON, every response carries the request id and the same
// security headers, and errors go through `sendError` only.
import { ServerResponse, validateHeaderName, validateHeaderValue, type IncomingMessage } from 'node:http'
import { errorBody, HttpError, type ErrorFormat } from './errors.ts'

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'
const CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'"

// Headers a failed handler may have set (ETag, Content-Length…) must not describe the error body.
const KEPT_ON_ERROR = /^(x-request-id|x-content-type-options|content-security-policy|(x-)?ratelimit-[a-z]+)$/

// res.setHeader checks the name and the value against the HTTP grammar and lower-cases the name on
// every call, then stores `[name, value]` under the lower-case name in the response's header
// table. The headers every request gets (constants, a UUID, numbers) are known to be valid, so
// they are stored in that same table directly: getHeader, removeHeader, a later setHeader of the
// same name and the order on the wire behave exactly as if setHeader had been called. The table is
// found once, by probing a response; where it cannot be found, setHeader is used.
type HeaderEntry = [name: string, value: string | number]
type HeaderTable = Record<string, HeaderEntry>
type WithTable = ServerResponse & Record<symbol, HeaderTable | null>

const HEADER_TABLE: symbol | null = (() => {
  try {
    const probe = new ServerResponse({ method: 'GET', httpVersionMajor: 1, httpVersionMinor: 1, headers: {} } as IncomingMessage)
    probe.setHeader('X-Probe', 'probe-value')
    for (const symbol of Object.getOwnPropertySymbols(probe)) {
      const table = (probe as WithTable)[symbol]
      if (table === null || typeof table !== 'object' || Object.getPrototypeOf(table) !== null) continue
      const entry = table['x-probe']
      if (Array.isArray(entry) && entry[0] === 'X-Probe' && entry[1] === 'probe-value' && Object.keys(table).length === 1) {
        // The table must also be what getHeader reads.
        ;(probe as WithTable)[symbol] = Object.assign(Object.create(null) as HeaderTable, { 'x-check': ['X-Check', 'check-value'] })
        return probe.getHeader('X-Check') === 'check-value' && probe.getHeaderNames().join() === 'x-check' ? symbol : null
      }
    }
  } catch {
    // fall back to setHeader
  }
  return null
})()

// Made as Node makes it (`{ __proto__: null }`, a dictionary-mode object): Object.create(null)
// gives an object whose later setHeader calls are several times slower.
const newHeaderTable = (): HeaderTable => ({ __proto__: null }) as unknown as HeaderTable

/** `res.setHeader(name, value)` for a name and value known to be valid; `lower` is the name in lower case. */
export function setKnownHeader(res: ServerResponse, lower: string, name: string, value: string | number): void {
  if (HEADER_TABLE === null || res.headersSent) {
    res.setHeader(name, value)
    return
  }
  let table = (res as WithTable)[HEADER_TABLE]
  if (table === null || table === undefined) {
    table = newHeaderTable()
    ;(res as WithTable)[HEADER_TABLE] = table
  }
  table[lower] = [name, value]
}

// Lower-case forms of the header names replies set (a handful): computed once, and the same string
// each time, which the header table's lookups find faster than a fresh lower-cased copy.
const lowerNames = new Map<string, string>()
const LOWER_NAMES_KEPT = 256

/** `res.setHeader(name, value)`: the same checks (and errors), the same table entry. */
export function setHeader(res: ServerResponse, name: string, value: string | number): void {
  if (HEADER_TABLE === null || res.headersSent) {
    res.setHeader(name, value)
    return
  }
  validateHeaderName(name)
  validateHeaderValue(name, value as string)
  let lower = lowerNames.get(name)
  if (lower === undefined) {
    lower = name.toLowerCase()
    if (lowerNames.size < LOWER_NAMES_KEPT) lowerNames.set(name, lower)
  }
  setKnownHeader(res, lower, name, value)
}

/** The headers every response carries (request id, security headers, JSON), and Cache-Control: no-store. */
export function setBaseHeaders(res: ServerResponse, requestId: string): void {
  if (HEADER_TABLE === null || res.headersSent || (res as WithTable)[HEADER_TABLE] !== null) {
    res.setHeader('X-Request-Id', requestId)
    res.setHeader('X-Content-Type-Options', 'nosniff')
    res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY)
    res.setHeader('Content-Type', JSON_CONTENT_TYPE)
    res.setHeader('Cache-Control', 'no-store')
    return
  }
  // A fresh response has no table yet: made whole, in the order setHeader would have filled it.
  const table = newHeaderTable()
  table['x-request-id'] = ['X-Request-Id', requestId]
  table['x-content-type-options'] = ['X-Content-Type-Options', 'nosniff']
  table['content-security-policy'] = ['Content-Security-Policy', CONTENT_SECURITY_POLICY]
  table['content-type'] = ['Content-Type', JSON_CONTENT_TYPE]
  table['cache-control'] = ['Cache-Control', 'no-store']
  ;(res as WithTable)[HEADER_TABLE] = table
}

/** A body serialized ahead of time (freshness, openapi.json): sent as is, never re-encoded. */
export class JsonText {
  constructor(readonly text: string) {}
}

/** Sends `body` (a value to serialize, or JsonText) with the given status. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void {
  if (headers !== undefined) for (const name in headers) if (Object.hasOwn(headers, name)) setHeader(res, name, headers[name])
  res.statusCode = status
  if (status === 304 || status === 204 || body === undefined) {
    res.removeHeader('Content-Type')
    res.end()
    return
  }
  const text = body instanceof JsonText ? body.text : JSON.stringify(body)
  setKnownHeader(res, 'content-length', 'Content-Length', Buffer.byteLength(text))
  res.end(text)
}

/** The error envelope for an HttpError (or the route's own error format); anything else is a 500 whose message is never shown. */
export function sendError(res: ServerResponse, error: unknown, requestId: string, format?: ErrorFormat): void {
  const known = error instanceof HttpError ? error : new HttpError('INTERNAL_ERROR', 'internal error')
  if (res.headersSent) {
    // A streaming handler failed mid-body: the client must not mistake the prefix for a whole answer.
    res.destroy()
    return
  }
  for (const name of res.getHeaderNames()) if (!KEPT_ON_ERROR.test(name)) res.removeHeader(name)
  res.setHeader('Content-Type', JSON_CONTENT_TYPE)
  const body = format ? format.body(known, requestId) : errorBody(known, requestId)
  sendJson(res, known.status, body, { 'Cache-Control': 'no-store', ...known.headers })
}
