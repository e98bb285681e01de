// A listener's request handler from a list of declared routes (route-table.ts), with the one error
// path wired in: unknown path 404, known path with another method 405 (+ Allow), everything in the
// JSON envelope. Every GET route answers HEAD too; OPTIONS answers with Allow, or a CORS preflight
// (http/cors.ts). What no route answers may go to a fallback (the web console's files).
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import type { Route } from './route.ts'
import { RouteTable } from './route-table.ts'
import { HttpError, type ErrorFormat } from '../base/errors.ts'
import { admitOrigin, answerPreflight, isPreflight, SAME_ORIGIN_ONLY } from '../http/cors.ts'
import { ensureBaseHeaders, requestContext } from '../http/request-context.ts'
import { sendJson } from '../http/respond.ts'
import type { AppDeps, RoutedRequest } from './exchange.ts'
import { fail, routeHandler } from './route-handler.ts'

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const

type Routed = (req: RoutedRequest, res: ServerResponse) => void

/** Answers a request no route and no fallback answered: the 404 or 405, or `error` when there is one. */
export type Unanswered = (req: IncomingMessage, res: ServerResponse, error?: unknown) => void

export type RouterOptions = {
  /** run before routing, for every request (the admin listener checks its token here); `next(error)` refuses */
  guard?: (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void
  /** given the answer of last resort, the handler of GET and HEAD requests no route matches (the web console) */
  fallback?: (unanswered: Unanswered) => RequestListener
}

/** `handler` serves a listener; `handlers` is the route table, method → path → handler, HEAD beside each GET. */
export type Router = { handler: RequestListener; handlers: RouteTable<Routed>['handlers'] }

/** The methods a route answers: a GET route answers HEAD too (the same status and headers, no body). */
const methodsOf = (route: Route): string[] => (route.method === 'GET' ? ['GET', 'HEAD'] : [route.method])

export function buildRouter(routes: Route[], deps: AppDeps, options: RouterOptions = {}): Router {
  const table = new RouteTable<Routed>()
  const routeOf = new Map<Routed, Route>()
  for (const route of routes) {
    // The reply cache is keyed by URL alone.
    if (route.cachesReplies && route.method !== 'GET') throw new Error(`route ${route.method} ${route.path} caches replies, which only a GET route may`)
    const handler = routeHandler(route, deps)
    routeOf.set(handler, route)
    for (const method of methodsOf(route)) table.add(method, route.path, handler)
  }

  const formatOf = errorFormatsBySegment(routes)
  const cors = deps.cors ?? SAME_ORIGIN_ONLY
  const refuse = (req: IncomingMessage, res: ServerResponse, error: unknown) => fail(deps.logger, req, res, error, formatOf(req))
  /** The methods answered on the request's path, OPTIONS included; none when no route has the path. */
  const allowedAt = (req: IncomingMessage): string[] => {
    const allowed: string[] = METHODS.filter((method) => table.find(method, req.url ?? '/') !== null)
    return allowed.length ? [...allowed, 'OPTIONS'] : []
  }
  // 404 or 405. A page on an origin let in may read it; one on another origin is refused as on a public route.
  const unanswered: Unanswered = (req, res, error) => {
    if (error !== undefined) return refuse(req, res, error)
    const origin = req.headers.origin
    refuse(req, res, (origin !== undefined && admitOrigin(cors, req, res, origin, true)) || noMatch(req, allowedAt(req)))
  }
  const answerOptions = (req: IncomingMessage, res: ServerResponse) => {
    const allowed = allowedAt(req)
    if (allowed.length === 0) return unanswered(req, res)
    if (isPreflight(req)) {
      const refusal = answerPreflight(cors, req, res, allowed, (method) => {
        const found = table.find(method, req.url ?? '/')
        return found ? routeOf.get(found.handler)!.auth === 'public' : null
      })
      if (refusal) return refuse(req, res, refusal)
    } else {
      res.setHeader('Allow', allowed.join(', '))
    }
    ensureBaseHeaders(req, res)
    sendJson(res, 204, undefined)
  }
  const fallback = options.fallback?.(unanswered)
  const unmatched = (req: IncomingMessage, res: ServerResponse) => {
    try {
      if (req.method === 'OPTIONS') answerOptions(req, res)
      else if (fallback && (req.method === 'GET' || req.method === 'HEAD')) fallback(req, res)
      else unanswered(req, res)
    } catch (error) {
      refuse(req, res, error)
    }
  }
  const dispatch = (req: RoutedRequest, res: ServerResponse) => {
    const found = table.find(req.method!, req.url!)
    if (found === null) return unmatched(req, res)
    req.params = found.params
    found.handler(req, res)
  }

  // The request context wraps every request, routed or not, the guard included.
  const within = requestContext(deps.logger, deps.metrics)
  const guard = options.guard
  const handler: RequestListener = guard
    ? (req, res) => within(req, res, () => guard(req, res, (error) => (error === undefined ? dispatch(req, res) : refuse(req, res, error))))
    : (req, res) => within(req, res, dispatch)
  return { handler, handlers: table.handlers }
}

// A path no route matches (a 404, or a 405 on a known path) answers in the error format of the
// routes under its first segment — `/taxjar/v2/categories` like the other `/taxjar` routes — when
// they all share one; otherwise in the default envelope.
function errorFormatsBySegment(routes: Route[]): (req: IncomingMessage) => ErrorFormat | undefined {
  const segmentOf = (path: string) => path.split('/')[1] ?? ''
  const formats = new Map<string, Set<ErrorFormat | undefined>>()
  for (const route of routes) {
    const segment = segmentOf(route.path)
    if (!formats.has(segment)) formats.set(segment, new Set())
    formats.get(segment)!.add(route.errorFormat)
  }
  return (req) => {
    const found = formats.get(segmentOf(pathOf(req)))
    return found?.size === 1 ? [...found][0] : undefined
  }
}

const pathOf = (req: IncomingMessage) => (req.url ?? '/').split('?')[0]

function noMatch(req: IncomingMessage, allowed: string[]): HttpError {
  const path = pathOf(req)
  if (allowed.length === 0) return new HttpError('NOT_FOUND', `No route ${path}.`)
  return new HttpError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${path}; use ${allowed.join(', ')}.`, { allowed }, { Allow: allowed.join(', ') })
}
