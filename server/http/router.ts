// A Polka app from a list of declared routes, with the one error path wired in: unknown path
// 404, known path with another method 405 (+ Allow), everything in the JSON envelope.
import type { IncomingMessage, ServerResponse } from 'node:http'
import polka from 'polka'
import type { Route } from '../routes/route.ts'
import { HttpError, type ErrorFormat } from './errors.ts'
import { requestContext } from './request-context.ts'
import { fail, routeHandler, type AppDeps, type RoutedRequest } from './route-handler.ts'

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const

type Handler = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void

export type RouterOptions = {
  /** middleware run before routing, for every request (the admin listener checks its token here) */
  guard?: Handler
}

export function buildRouter(routes: Route[], deps: AppDeps, options: RouterOptions = {}): polka.Polka {
  const seen = new Set<string>()
  const formatOf = errorFormatsBySegment(routes)
  // The request context starts every request, routed or not: in the guard when there is one (it
  // runs before routing), else inside each handler rather than as middleware, so that Polka calls
  // a route's one handler directly.
  const begin = requestContext(deps.logger)
  const beginUnguarded = options.guard ? () => {} : begin
  const app = polka({
    onError: (error: unknown, req: IncomingMessage, res: ServerResponse) => fail(deps.logger, req, res, error, formatOf(req)),
    onNoMatch: (req: IncomingMessage, res: ServerResponse) => {
      beginUnguarded(req, res)
      fail(deps.logger, req, res, noMatch(app, req), formatOf(req))
    },
  } as polka.Options)
  // Polka parses every query string into req.query; here the route handler parses it, and only
  // when it reads it (a lookup answered from the reply cache never does). `app.parse` is Polka's
  // documented hook for the URL parser.
  const parseUrl = app.parse
  app.parse = (req: polka.Request) => {
    const url = parseUrl(req)
    return url && { ...url, query: null }
  }
  if (options.guard) {
    const guard = options.guard
    app.use(((req, res, next) => {
      begin(req, res)
      guard(req, res, next)
    }) as Handler as unknown as polka.Middleware)
  }
  for (const route of routes) {
    const key = `${route.method} ${route.path}`
    if (seen.has(key)) throw new Error(`route ${key} is declared twice`)
    seen.add(key)
    const handler = routeHandler(route, deps)
    app.add(route.method, route.path, ((req: RoutedRequest, res: ServerResponse) => {
      beginUnguarded(req, res)
      handler(req, res)
    }) as unknown as polka.Middleware)
  }
  return app
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
    const found = formats.get(segmentOf((req.url ?? '/').split('?')[0]))
    return found?.size === 1 ? [...found][0] : undefined
  }
}

function noMatch(app: polka.Polka, req: IncomingMessage): HttpError {
  const path = (req.url ?? '/').split('?')[0]
  const allowed = METHODS.filter((method) => app.find(method, path))
  if (allowed.length === 0) return new HttpError('NOT_FOUND', `No route ${path}.`)
  return new HttpError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${path}; use ${allowed.join(', ')}.`, { allowed }, { Allow: allowed.join(', ') })
}
