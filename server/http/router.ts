// A Polka app from a list of declared routes, with the one error path wired in: unknown path
// 404, known path with another method 405 (+ Allow), everything in the JSON envelope.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { parse as parseQuery, type ParsedUrlQuery } from 'node:querystring'
import polka from 'polka'
import type { Method, Route } from '../routes/route.ts'
import { HttpError, type ErrorFormat } from './errors.ts'
import { requestContext } from './request-context.ts'
import { fail, routeHandler, type AppDeps } from './route-handler.ts'

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const

type Handler = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void

export type RouterOptions = {
  /** middleware run before routing, for every request (the admin listener checks its token here) */
  guard?: Handler
}

export function buildRouter(routes: Route[], deps: AppDeps, options: RouterOptions = {}): polka.Polka {
  const seen = new Set<string>()
  const formatOf = errorFormatsBySegment(routes)
  const wares: Handler[] = [requestContext(deps.logger)]
  if (options.guard) wares.push(options.guard)
  const handlers = routes.map((route) => {
    const key = `${route.method} ${route.path}`
    if (seen.has(key)) throw new Error(`route ${key} is declared twice`)
    seen.add(key)
    return { method: route.method, path: route.path, handler: routeHandler(route, deps) as Handler }
  })
  const app: polka.Polka = polkaApp(handlers, wares, {
    onError: (error, req, res) => fail(deps.logger, req, res, error, formatOf(req)),
    onNoMatch: (req, res) => fail(deps.logger, req, res, noMatch(app, req), formatOf(req)),
  })
  return app
}

export type Endings = {
  onError: (error: unknown, req: IncomingMessage, res: ServerResponse) => void
  onNoMatch: (req: IncomingMessage, res: ServerResponse) => void
}

/**
 * A Polka app of `wares` (run for every request, in order) and `routes`. Its `handler` is
 * `dispatcher`'s when every pattern is one RouteTable takes, else Polka's own.
 */
export function polkaApp(routes: { method: Method; path: string; handler: Handler }[], wares: Handler[], endings: Endings): polka.Polka {
  const app = polka({ onError: endings.onError, onNoMatch: endings.onNoMatch } as polka.Options)
  for (const ware of wares) app.use(ware as unknown as polka.Middleware)
  const table = new RouteTable()
  for (const route of routes) {
    app.add(route.method as Method, route.path, route.handler as unknown as polka.Middleware)
    table.add(route.method, route.path, route.handler)
  }
  if (table.complete) app.handler = dispatcher(table, wares, endings, app.handler) as unknown as typeof app.handler
  return app
}

type RoutedFields = { originalUrl?: string; path?: string; search?: string | null; params?: Record<string, string>; query?: unknown; _parsedUrl?: ParsedUrl }
type ParsedUrl = { query: string | null; search: string | null; href: string; path: string; pathname: string; _raw: string }

/**
 * Polka's request handler (polka 0.5: @polka/url, trouter and matchit) without its per-request
 * work that does not depend on the request: the same route chosen (the first declared pattern
 * whose segments match), the same req.params, req.query (node:querystring), req.path,
 * req.search, req.originalUrl and req._parsedUrl, and the middleware run in the same order with
 * the same `next`. Used only when every pattern is plain segments and `:name` parameters (see
 * RouteTable); otherwise, and for a request without a URL, Polka's own handler answers.
 */
function dispatcher(table: RouteTable, wares: Handler[], { onError, onNoMatch }: Endings, polkaHandler: unknown) {
  const fallback = polkaHandler as (req: IncomingMessage, res: ServerResponse) => void
  return (req: IncomingMessage & RoutedFields, res: ServerResponse) => {
    const info = parseUrl(req)
    if (info === undefined) return fallback(req, res)
    const found = table.find(req.method ?? '', info.pathname)
    req.originalUrl = req.originalUrl || req.url
    req.path = info.pathname
    if (found) req.params = found.params
    req.search = info.search
    req.query = parseQueryString(info.query)
    const last = found ? found.handler : onNoMatch
    const count = wares.length + 1
    let i = 0
    const next = (error?: unknown): unknown => (error ? onError(error, req, res) : loop())
    const loop = (): unknown => res.finished || (i < count && (i < wares.length ? wares[i++](req, res, next) : (i++, last(req, res, next))))
    loop()
  }
}

// Parameter names seen, each kept as one string: storing a fresh copy of a name into the result
// object costs V8 a string-table lookup per parameter, the kept one does not.
const queryNames = new Map<string, string>()
const QUERY_NAMES_KEPT = 256
// A `%` that does not start an escape (`%` and two hex digits).
const LONE_PERCENT = /%(?![0-9A-Fa-f]{2})/
const PLUS = /\+/g

/**
 * node:querystring.parse(query), as Polka calls it (no query gives an empty object). The common
 * query is split here with the same result: `name=value` pairs, no empty pair and no bare name, no
 * name twice (querystring makes an array of those), no `+` or `%` in a name, at most 1000 pairs
 * (querystring's limit), and a value whose `+` are spaces and whose `%` all start escapes that
 * decodeURIComponent accepts (querystring decodes the value with decodeURIComponent then). Any
 * other query is parsed by querystring.parse itself.
 */
export function parseQueryString(query: string | null): ParsedUrlQuery {
  if (query === null || query.length === 0) return parseQuery(query as string)
  const parsed = { __proto__: null } as unknown as ParsedUrlQuery
  let start = 0
  let pairs = 0
  for (;;) {
    let end = query.indexOf('&', start)
    if (end === -1) end = query.length
    const equals = query.indexOf('=', start)
    if (equals <= start || equals > end || ++pairs > 1000) return parseQuery(query)
    let name = query.slice(start, equals)
    if (name.includes('+') || name.includes('%')) return parseQuery(query)
    const kept = queryNames.get(name)
    if (kept !== undefined) name = kept
    else if (queryNames.size < QUERY_NAMES_KEPT) queryNames.set(name, name)
    if (parsed[name] !== undefined) return parseQuery(query)
    let value = query.slice(equals + 1, end)
    if (value.includes('+')) value = value.replace(PLUS, ' ')
    if (value.includes('%')) {
      if (LONE_PERCENT.test(value)) return parseQuery(query)
      try {
        value = decodeURIComponent(value)
      } catch {
        return parseQuery(query)
      }
    }
    parsed[name] = value
    if (end === query.length) return parsed
    start = end + 1
  }
}

/** @polka/url 0.5: the path and query of req.url, kept on the request. */
function parseUrl(req: IncomingMessage & RoutedFields): ParsedUrl | undefined {
  const url = req.url
  if (url === undefined) return undefined
  const cached = req._parsedUrl
  if (cached && cached._raw === url) return cached
  const parsed: ParsedUrl = { query: null, search: null, href: url, path: url, pathname: url, _raw: url }
  const index = url.indexOf('?', 1)
  if (index !== -1) {
    parsed.search = url.substring(index)
    parsed.query = parsed.search.substring(1)
    parsed.pathname = url.substring(0, index)
  }
  req._parsedUrl = parsed
  return parsed
}

type TableRoute = { segments: (string | null)[]; names: (string | null)[]; handler: Handler }

/**
 * The routes by method and segment count, in declaration order, matched as matchit matches plain
 * patterns: the path loses one leading and one trailing slash and is split on `/`; a literal
 * segment must be equal, a parameter takes any segment (even an empty one), and the path `/`
 * matches no pattern with a segment. `complete` is false once a pattern uses anything else
 * (`*`, `:name?`, `:name.ext`, empty segments, `/` itself).
 */
class RouteTable {
  complete = true
  readonly #byMethod = new Map<string, Map<number, TableRoute[]>>()

  add(method: string, pattern: string, handler: Handler): void {
    const segments = stripSlashes(pattern).split('/')
    if (pattern === '/' || method === '*' || segments.some((s) => s === '' || s.includes('*') || (s.startsWith(':') && (s.includes('?') || s.includes('.') || s.length === 1)))) {
      this.complete = false
      return
    }
    const route: TableRoute = {
      segments: segments.map((s) => (s.startsWith(':') ? null : s)),
      names: segments.map((s) => (s.startsWith(':') ? s.slice(1) : null)),
      handler,
    }
    let byCount = this.#byMethod.get(method)
    if (!byCount) this.#byMethod.set(method, (byCount = new Map()))
    const list = byCount.get(segments.length) ?? []
    list.push(route)
    byCount.set(segments.length, list)
  }

  find(method: string, pathname: string): { handler: Handler; params: Record<string, string> } | null {
    const byCount = this.#byMethod.get(method)
    if (!byCount) return null
    const stripped = stripSlashes(pathname)
    // The path `/` is the one segment `/`, which only `/` would match.
    if (stripped === '/') return null
    const parts = stripped.split('/')
    const candidates = byCount.get(parts.length)
    if (!candidates) return null
    for (const route of candidates) {
      let matches = true
      for (let i = 0; i < parts.length; i++) {
        const literal = route.segments[i]
        if (literal !== null && literal !== parts[i]) {
          matches = false
          break
        }
      }
      if (!matches) continue
      const params: Record<string, string> = {}
      for (let i = 0; i < parts.length; i++) {
        const name = route.names[i]
        if (name !== null) params[name] = parts[i]
      }
      return { handler: route.handler, params }
    }
    return null
  }
}

/** matchit's strip: `/` stays `/`; otherwise one leading and one trailing slash go. */
function stripSlashes(path: string): string {
  if (path === '/') return path
  let stripped = path.charCodeAt(0) === 47 ? path.substring(1) : path
  if (stripped.charCodeAt(stripped.length - 1) === 47) stripped = stripped.substring(0, stripped.length - 1)
  return stripped
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
