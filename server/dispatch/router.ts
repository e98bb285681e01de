// A Polka app from a list of declared routes, with the one error path wired in: unknown path
// 404, known path with another method 405 (+ Allow), everything in the JSON envelope. Every GET
// route answers HEAD too; OPTIONS answers with Allow, or a CORS preflight (http/cors.ts).
import type { IncomingMessage, ServerResponse } from 'node:http'
import polka from 'polka'
import type Trouter from 'trouter'
import type { Route } from './route.ts'
import { HttpError, type ErrorFormat } from '../base/errors.ts'
import { admitOrigin, answerPreflight, isPreflight, SAME_ORIGIN_ONLY } from '../http/cors.ts'
import { ensureBaseHeaders, requestContext } from '../http/request-context.ts'
import { sendJson } from '../http/respond.ts'
import { fail, routeHandler, type AppDeps, type RoutedRequest } from './route-handler.ts'

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const

type Handler = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void

export type RouterOptions = {
  /** middleware run before routing, for every request (the admin listener checks its token here) */
  guard?: Handler
  /** answers a GET or HEAD no route matches, calling `next` when it has nothing either (the web console's files) */
  fallback?: Handler
}

/** The methods a route answers: a GET route answers HEAD too (the same status and headers, no body). */
const methodsOf = (route: Route): string[] => (route.method === 'GET' ? ['GET', 'HEAD'] : [route.method])

export function buildRouter(routes: Route[], deps: AppDeps, options: RouterOptions = {}): polka.Polka {
  const seen = new Set<string>()
  const formatOf = errorFormatsBySegment(routes)
  // The request context wraps every request, routed or not: in the guard when there is one (it
  // runs before routing), else inside each handler rather than as middleware, so that Polka calls
  // a route's one handler directly.
  const within = requestContext(deps.logger, deps.metrics)
  const withinUnguarded: typeof within = options.guard ? (req, res, handle) => handle(req, res) : within
  const cors = deps.cors ?? SAME_ORIGIN_ONLY
  const routeOf = new Map<Routed, Route>()
  /** The route answering `method` on `path`, if any. */
  const find = (method: string, path: string): Route | undefined => {
    const found = app.find(method as Trouter.HTTPMethod, path)
    return found ? routeOf.get(found.handlers[0] as unknown as Routed) : undefined
  }
  const refuse = (req: IncomingMessage, res: ServerResponse, error: unknown) => fail(deps.logger, req, res, error, formatOf(req))
  // 404 or 405. A page on an origin let in may read it; one on another origin is refused as on a public route.
  const notFound = (req: IncomingMessage, res: ServerResponse) => {
    const origin = req.headers.origin
    refuse(req, res, (origin !== undefined && admitOrigin(cors, req, res, origin, true)) || noMatch(app, req))
  }
  const answerOptions = (req: IncomingMessage, res: ServerResponse) => {
    const path = pathOf(req)
    const allowed = allowedMethods(app, path)
    if (allowed.length === 0) return notFound(req, res)
    if (isPreflight(req)) {
      const refusal = answerPreflight(cors, req, res, allowed, (method) => {
        const route = find(method, path)
        return route ? route.auth === 'public' : null
      })
      if (refusal) return refuse(req, res, refusal)
    } else {
      res.setHeader('Allow', allowed.join(', '))
    }
    ensureBaseHeaders(req, res)
    sendJson(res, 204, undefined)
  }
  const unmatched = (req: IncomingMessage, res: ServerResponse) => {
    try {
      if (req.method === 'OPTIONS') answerOptions(req, res)
      else if (options.fallback && (req.method === 'GET' || req.method === 'HEAD')) options.fallback(req, res, () => notFound(req, res))
      else notFound(req, res)
    } catch (error) {
      refuse(req, res, error)
    }
  }
  const app = polka({
    onError: (error: unknown, req: IncomingMessage, res: ServerResponse) => fail(deps.logger, req, res, error, formatOf(req)),
    onNoMatch: (req: IncomingMessage, res: ServerResponse) => withinUnguarded(req, res, unmatched),
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
    app.use(((req, res, next) => within(req, res, guard as Parameters<typeof within>[2], next)) as Handler as unknown as polka.Middleware)
  }
  const direct = new DirectRoutes(routes)
  for (const route of routes) {
    const key = `${route.method} ${route.path}`
    if (seen.has(key)) throw new Error(`route ${key} is declared twice`)
    // The reply cache is keyed by URL alone.
    if (route.cachesReplies && route.method !== 'GET') throw new Error(`route ${key} caches replies, which only a GET route may`)
    seen.add(key)
    const handler = routeHandler(route, deps)
    const routed = (req: RoutedRequest, res: ServerResponse) => withinUnguarded(req, res, handler)
    routeOf.set(routed, route)
    for (const method of methodsOf(route)) {
      app.add(method as Trouter.HTTPMethod, route.path, routed as unknown as polka.Middleware)
      direct.set(route, method, routed)
    }
  }
  if (direct.size > 0 && !options.guard) {
    const polkaHandler = app.handler
    app.handler = ((req: RoutedRequest, res: ServerResponse) => {
      if (!direct.dispatch(req, res)) polkaHandler(req as polka.Request, res)
    }) as typeof app.handler
  }
  return app
}

type Routed = (req: RoutedRequest, res: ServerResponse) => void

/**
 * Routes of fixed segments (the order-tax POST, `/taxjar/v2/taxes`) or shaped
 * `/fixed/segments/:param` (the rate lookup, `/v1/tax/:state`), answered without Polka's URL
 * parsing and route search: on a lookup answered from the reply cache those took about a tenth of
 * the server's time. A route is taken only when no other route of its method could match the same
 * URLs, and only a URL of exactly that shape (the very path; or one non-empty last segment, no
 * trailing slash) is dispatched here; any other goes through Polka, so the answer is always the one
 * Polka would route to.
 */
class DirectRoutes {
  readonly #byMethod = new Map<string, Map<string, { param: string; handler: Routed }>>()
  readonly #exact = new Map<string, Map<string, Routed>>()
  readonly #eligible: Set<Route>

  constructor(routes: Route[]) {
    this.#eligible = new Set(
      routes.filter((route) => (isFixed(route.path) || prefixOf(route.path) !== null) && !routes.some((other) => other !== route && mayOverlap(route, other))),
    )
  }

  set(route: Route, method: string, handler: Routed): void {
    if (!this.#eligible.has(route)) return
    if (isFixed(route.path)) {
      if (!this.#exact.has(method)) this.#exact.set(method, new Map())
      this.#exact.get(method)!.set(route.path, handler)
      return
    }
    const { prefix, param } = prefixOf(route.path)!
    if (!this.#byMethod.has(method)) this.#byMethod.set(method, new Map())
    this.#byMethod.get(method)!.set(prefix, { param, handler })
  }

  get size(): number {
    return this.#byMethod.size + this.#exact.size
  }

  /** True when the request was handed to its route. */
  dispatch(req: RoutedRequest, res: ServerResponse): boolean {
    const url = req.url!
    const query = url.indexOf('?')
    const end = query === -1 ? url.length : query
    const exact = this.#exact.get(req.method!)?.get(query === -1 ? url : url.slice(0, end))
    if (exact !== undefined) {
      req.params = {}
      exact(req, res)
      return true
    }
    const byPrefix = this.#byMethod.get(req.method!)
    if (byPrefix === undefined) return false
    const slash = url.lastIndexOf('/', end - 1)
    if (slash <= 0 || slash === end - 1) return false
    const found = byPrefix.get(url.slice(0, slash + 1))
    if (found === undefined) return false
    // A keyed store, not `{ [param]: … }`: V8 builds a literal with a computed key in its runtime,
    // which cost a lookup answered from the reply cache about 2% of its time.
    const params: Record<string, string> = {}
    params[found.param] = url.slice(slash + 1, end)
    req.params = params
    found.handler(req, res)
    return true
  }
}

/** A pattern of fixed segments only: `/taxjar/v2/taxes`. */
const isFixed = (pattern: string): boolean => /^(?:\/[A-Za-z0-9._~-]+)+$/.test(pattern)

/** `/v1/tax/:state` → prefix `/v1/tax/`, param `state`; null for any other shape. */
function prefixOf(pattern: string): { prefix: string; param: string } | null {
  const match = /^((?:\/[A-Za-z0-9._~-]+)+\/):([A-Za-z_][A-Za-z0-9_]*)$/.exec(pattern)
  return match ? { prefix: match[1], param: match[2] } : null
}

/** Whether some URL could match both patterns (segment by segment; a parameter or wildcard matches anything). */
function mayOverlap(a: Route, b: Route): boolean {
  if (a.method !== b.method) return false
  const segments = (path: string) => path.split('/').filter(Boolean)
  const [sa, sb] = [segments(a.path), segments(b.path)]
  const wild = (segment: string) => segment.startsWith(':') || segment.includes('*')
  if (sa.some((s) => s.includes('*') || s.endsWith('?')) || sb.some((s) => s.includes('*') || s.endsWith('?'))) return true
  return sa.length === sb.length && sa.every((segment, i) => wild(segment) || wild(sb[i]) || segment === sb[i])
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

const pathOf = (req: IncomingMessage) => (req.url ?? '/').split('?')[0]

/** The methods answered on `path`, OPTIONS included; none when no route has the path. */
function allowedMethods(app: polka.Polka, path: string): string[] {
  const allowed: string[] = METHODS.filter((method) => app.find(method, path))
  return allowed.length ? [...allowed, 'OPTIONS'] : []
}

function noMatch(app: polka.Polka, req: IncomingMessage): HttpError {
  const path = pathOf(req)
  const allowed = allowedMethods(app, path)
  if (allowed.length === 0) return new HttpError('NOT_FOUND', `No route ${path}.`)
  return new HttpError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${path}; use ${allowed.join(', ')}.`, { allowed }, { Allow: allowed.join(', ') })
}
