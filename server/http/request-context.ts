// Per-request bookkeeping shared by the middleware and the route handler: the request id, the
// route pattern and account once known, and the access log line written when the response closes.
import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Logger } from '../logger.ts'
import { setBaseHeaders } from './respond.ts'

export type RequestState = { requestId: string; startedAt: number; route: string | null; accountId: string | null }

const states = new WeakMap<IncomingMessage, RequestState>()

export function requestState(req: IncomingMessage): RequestState {
  let state = states.get(req)
  if (!state) {
    state = { requestId: randomUUID(), startedAt: performance.now(), route: null, accountId: null }
    states.set(req, state)
  }
  return state
}

/** Middleware: assigns the request id, sets the headers every response carries, logs on close. */
export function requestContext(logger: Logger) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const state = requestState(req)
    setBaseHeaders(res, state.requestId)
    res.setHeader('Cache-Control', 'no-store')
    res.once('close', () => {
      // Never the query string or headers: they may carry a key.
      logger.info('request', {
        method: req.method,
        route: state.route,
        path: (req.url ?? '').split('?')[0],
        status: res.statusCode,
        duration_ms: Math.round((performance.now() - state.startedAt) * 100) / 100,
        support_reference: state.requestId,
        account_id: state.accountId,
        ...(res.writableFinished ? {} : { aborted: true }),
      })
    })
    next()
  }
}
