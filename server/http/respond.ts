// Writing responses: every body is JSON, every response carries the request id and the same
// security headers, and errors go through `sendError` only.
import type { ServerResponse } from 'node:http'
import { errorBody, HttpError, type ErrorFormat } from '../base/errors.ts'

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

// Headers a failed handler may have set (ETag, Content-Length…) must not describe the error body;
// the CORS headers stay, so a page on an allowed origin can read the error.
const KEPT_ON_ERROR = /^(x-request-id|x-content-type-options|content-security-policy|ratelimit-[a-z]+|access-control-[a-z-]+|vary)$/

// The headers every response carries besides its request id, as [name, value, …].
const BASE_HEADERS = [
  'X-Content-Type-Options', 'nosniff',
  'Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'",
  'Content-Type', JSON_CONTENT_TYPE,
  'Cache-Control', 'no-store',
]

/** The headers every response carries: request id, security headers, JSON, and Cache-Control: no-store. */
export function setBaseHeaders(res: ServerResponse, requestId: string): void {
  res.setHeader('X-Request-Id', requestId)
  for (let i = 0; i < BASE_HEADERS.length; i += 2) res.setHeader(BASE_HEADERS[i], BASE_HEADERS[i + 1])
}

/** The same headers as [name, value, …], for `sendWhole` (a fresh list, which the caller may add to). */
export const baseHeaderList = (requestId: string): string[] => ['X-Request-Id', requestId, ...BASE_HEADERS]

/**
 * A response whose every header is known at once, written with one writeHead: on a response no
 * header was set on yet, Node then stores none of them one by one (the lookup cache's fast path).
 */
export function sendWhole(res: ServerResponse, status: number, headers: string[], body: Buffer): void {
  res.writeHead(status, headers).end(body)
}

/** A body serialized ahead of time (freshness, openapi.json): sent as is, never re-encoded. */
export class JsonText {
  constructor(readonly text: string) {}
}

/** Sends `body` (a value to serialize, or JsonText) with the given status. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void {
  for (const name in headers) res.setHeader(name, headers[name])
  res.statusCode = status
  if (status === 304 || status === 204 || body === undefined) {
    res.removeHeader('Content-Type')
    res.end()
    return
  }
  const text = body instanceof JsonText ? body.text : JSON.stringify(body)
  res.setHeader('Content-Length', Buffer.byteLength(text))
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
