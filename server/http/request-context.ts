// Per-request bookkeeping shared by the middleware and the route handler: the request id, the
// route pattern and account once known, and the access log line written when the response closes.
import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { LogFields, Logger } from '../logger.ts'
import { setBaseHeaders } from './respond.ts'

export type RequestState = { requestId: string; startedAt: number; route: string | null; accountId: string | null }

// Kept on the request itself (a symbol no one else reads): cheaper than a WeakMap lookup per access.
const STATE = Symbol('taxatlas.requestState')
type WithState = IncomingMessage & { [STATE]?: RequestState }

export function requestState(req: IncomingMessage): RequestState {
  let state = (req as WithState)[STATE]
  if (!state) {
    state = { requestId: randomUUID(), startedAt: performance.now(), route: null, accountId: null }
    ;(req as WithState)[STATE] = state
  }
  return state
}

/** The path of a request URL: everything before the query string. */
const pathOf = (url: string) => {
  const query = url.indexOf('?')
  return query === -1 ? url : url.slice(0, query)
}

/** Middleware: assigns the request id, sets the headers every response carries, logs on close. */
export function requestContext(logger: Logger) {
  // One listener shared by every response (no closure per request); `this` is the response.
  function logOnClose(this: ServerResponse) {
    const req = this.req
    const state = requestState(req)
    // Never the query string or headers: they may carry a key.
    const fields: LogFields = {
      method: req.method,
      route: state.route,
      path: pathOf(req.url ?? ''),
      status: this.statusCode,
      duration_ms: Math.round((performance.now() - state.startedAt) * 100) / 100,
      support_reference: state.requestId,
      account_id: state.accountId,
    }
    if (!this.writableFinished) fields.aborted = true
    logger.info('request', fields)
  }
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const state = requestState(req)
    setBaseHeaders(res, state.requestId)
    // `close` comes once per response, after `finish` or when the client goes away first.
    res.on('close', logOnClose)
    next()
  }
}
