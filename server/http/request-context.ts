// Per-request bookkeeping shared by the router and the route handler: the request id, the route
// pattern and account once known, and the access log line written once the request is answered.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AccessEntry, Logger } from '../base/logger.ts'
import type { ServerMetrics } from '../base/metrics.ts'
import { KEY_PREFIX } from '../store/api-keys.ts'
import { newRequestId } from './request-id.ts'
import { setBaseHeaders } from './respond.ts'

export type RequestState = {
  requestId: string
  startedAt: number
  route: string | null
  accountId: string | null
  /** the base headers are set on the response (`ensureBaseHeaders`; a cached reply sends them in its one writeHead) */
  baseHeadersSet: boolean
}

// Kept on the request under a symbol nobody else reads: cheaper than a WeakMap on every access.
const STATE = Symbol('taxatlas.request')
type WithState = IncomingMessage & { [STATE]?: RequestState }

export function requestState(req: IncomingMessage): RequestState {
  return ((req as WithState)[STATE] ??= { requestId: newRequestId(), startedAt: performance.now(), route: null, accountId: null, baseHeadersSet: false })
}

type Handle = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void

/**
 * Runs the handling of one request (`handle`, called at once, with `next` if given) and writes its
 * access log line: at once when `handle` answered before returning (a refusal), else when the
 * response closes (a reply sent with the others of its turn, see respond.ts `sendWhole`). Used
 * once per request: by a router's guard, else by the route or the not-found answer. The headers
 * every response carries are set by whatever answers (`ensureBaseHeaders`).
 */
export function requestContext(logger: Logger, metrics?: ServerMetrics) {
  function log(res: ServerResponse, aborted: boolean) {
    const req = res.req
    const state = requestState(req)
    const entry: AccessEntry = {
      method: req.method ?? null,
      route: state.route,
      path: loggedPath(req.url ?? ''),
      // A client gone before any answer was sent got none: no status, rather than Node's default 200.
      status: aborted && !res.headersSent ? null : res.statusCode,
      duration_ms: performance.now() - state.startedAt,
      support_reference: state.requestId,
      account_id: state.accountId,
    }
    if (aborted) entry.aborted = true
    logger.request(entry)
    metrics?.request(entry)
  }
  // One listener for every response (`this`), rather than a closure made per request. `close`
  // comes once per response, after `finish` or when the client went away first.
  function logOnClose(this: ServerResponse) {
    log(this, !this.writableFinished)
  }
  return (req: IncomingMessage, res: ServerResponse, handle: Handle, next?: (error?: unknown) => void) => {
    requestState(req)
    try {
      handle(req, res, next)
    } finally {
      // Answered already: the whole reply is with the socket (unless the client is gone), so the
      // line need not wait for the close.
      if (res.writableEnded) log(res, req.socket.destroyed)
      else res.on('close', logOnClose)
    }
  }
}

/** Sets the headers every response carries, once; every path that answers calls it before writing. */
export function ensureBaseHeaders(req: IncomingMessage, res: ServerResponse): void {
  const state = requestState(req)
  if (state.baseHeadersSet || res.headersSent) return
  state.baseHeadersSet = true
  setBaseHeaders(res, state.requestId)
}

// Never the query string or headers, and no API key sent by mistake as a path segment
// (`/v1/tax/tx_live_…`): the log must not hold a credential. A segment is judged as the server
// reads it, percent-decoded (`tx%5Flive%5F…` is the same key), and a key's secret part is
// recognized without its prefix too: a run of 40 or more URL-safe base64 characters mixing
// digits, lower- and upper-case letters is replaced; so is such a run split by separators sent
// escaped (`%2F`, `%20`, `+`, …), which would otherwise leave each part too short to be seen, and
// one split by a literal `/` over several segments (each part holding a digit or an upper-case
// letter, as a part of a random key all but always does; route words never do). A segment that
// needs no redaction is logged as it arrived.
const API_KEY = new RegExp(`${KEY_PREFIX}[^?#]*`, 'g')
const KEY_SHAPED = /[A-Za-z0-9_-]+(?:[^A-Za-z0-9_-]{1,3}[A-Za-z0-9_-]+)*/g
const SEPARATORS = /[^A-Za-z0-9_-]/g
const MAYBE_SECRET = /%|[A-Za-z0-9_-]{40}|[A-Za-z0-9_-][^/?#A-Za-z0-9_-]{1,3}[A-Za-z0-9_-]/
/** A segment that may be part of a key split by `/`: key characters (and separators), a digit or an upper-case letter among them. */
const KEY_PART = /^[A-Za-z0-9_-]+(?:[^A-Za-z0-9_-]{1,3}[A-Za-z0-9_-]+)*$/
const keyShaped = (run: string) => run.length >= 40 && /[0-9]/.test(run) && /[a-z]/.test(run) && /[A-Z]/.test(run)
const keyPart = (decoded: string) => KEY_PART.test(decoded) && /[0-9A-Z]/.test(decoded)

export function loggedPath(url: string): string {
  const query = url.indexOf('?')
  const path = query === -1 ? url : url.slice(0, query)
  if (!path.includes(KEY_PREFIX) && !MAYBE_SECRET.test(path) && !/[0-9A-Z][^/]*\/[^/]*[0-9A-Z]/.test(path)) return path
  const segments = path.split('/')
  const decoded = segments.map(decodedSegment)
  const logged: string[] = []
  for (let i = 0; i < segments.length; ) {
    // The longest run of key parts from here that reads as a key (or holds its prefix) is one key.
    let end = i
    while (end < segments.length && keyPart(decoded[end]!)) end++
    const run = decoded.slice(i, end).join('')
    if (end - i >= 2 && (run.includes(KEY_PREFIX) || keyShaped(run.replace(SEPARATORS, '')))) {
      logged.push(run.startsWith(KEY_PREFIX) ? `${KEY_PREFIX}[redacted]` : '[redacted]')
      i = end
    } else {
      logged.push(redactedSegment(segments[i]!, decoded[i]!))
      i++
    }
  }
  return logged.join('/')
}

function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    // malformed escapes: judged as sent
    return segment
  }
}

function redactedSegment(segment: string, decoded: string): string {
  const redacted = decoded.replace(API_KEY, `${KEY_PREFIX}[redacted]`).replace(KEY_SHAPED, (run) => (keyShaped(run.replace(SEPARATORS, '')) ? '[redacted]' : run))
  return redacted === decoded ? segment : redacted
}
