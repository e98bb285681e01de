// Which declared route answers a request. A route's path is fixed segments and `:name` segments
// (`/healthz`, `/v1/tax/:state`, `/v1/webhooks/:id/deliveries`); a URL matches segment by segment,
// one trailing slash ignored, a parameter taking any one segment (percent-decoding is the route
// handler's). Where several routes match, the one declared first answers. A fixed path is found
// in a map; the others are tried among the routes with the same number of segments, in the order
// they were declared.

/** A `:name` segment: `[A-Za-z_][A-Za-z0-9_]*`; every other segment is matched as written. */
const PARAM = /^:([A-Za-z_][A-Za-z0-9_]*)$/
const FIXED = /^[A-Za-z0-9_.~!$&'()+,;=@-]+$/
const SLASH = 47

type Pattern<H> = {
  path: string
  /** per segment: the fixed text, or null for a parameter */
  fixed: (string | null)[]
  /** per segment: the parameter's name, or null */
  names: (string | null)[]
  handler: H
}

export type RouteMatch<H> = { handler: H; params: Record<string, string> }

export class RouteTable<H> {
  /** by method: fixed paths, as their segments joined by `/` */
  readonly #exact = new Map<string, Map<string, H>>()
  /** by method, then by number of segments: patterns with a parameter, in declaration order */
  readonly #patterns = new Map<string, Map<number, Pattern<H>[]>>()
  /** by method, then pattern: every handler, as declared */
  readonly handlers: Record<string, Record<string, H>> = {}

  /** Adds a route; a path declared twice for a method, or one no URL could reach, is refused. */
  add(method: string, path: string, handler: H): void {
    const pattern = parse(path, handler)
    const byPattern = (this.handlers[method] ??= {})
    if (path in byPattern) throw new Error(`route ${method} ${path} is declared twice`)
    const sameLength = this.#patterns.get(method)?.get(pattern.fixed.length) ?? []
    const shadow = sameLength.find((earlier) => earlier.fixed.every((segment, i) => segment === null || segment === pattern.fixed[i]))
    if (shadow) throw new Error(`route ${method} ${path} is never reached: ${shadow.path}, declared before it, answers every URL it would`)
    byPattern[path] = handler
    if (pattern.names.every((name) => name === null)) {
      if (!this.#exact.has(method)) this.#exact.set(method, new Map())
      this.#exact.get(method)!.set(pattern.fixed.join('/'), handler)
      return
    }
    if (!this.#patterns.has(method)) this.#patterns.set(method, new Map())
    const byLength = this.#patterns.get(method)!
    if (!byLength.has(pattern.fixed.length)) byLength.set(pattern.fixed.length, [])
    byLength.get(pattern.fixed.length)!.push(pattern)
  }

  /** The route answering `method` on `url` (its query string ignored) and its parameters as sent. */
  find(method: string, url: string): RouteMatch<H> | null {
    const key = keyOf(url)
    const exact = this.#exact.get(method)?.get(key)
    if (exact !== undefined) return { handler: exact, params: {} }
    const byLength = this.#patterns.get(method)
    if (byLength === undefined) return null
    const patterns = byLength.get(segmentCount(key))
    if (patterns === undefined) return null
    for (const pattern of patterns) if (matches(pattern, key)) return { handler: pattern.handler, params: paramsOf(pattern, key) }
    return null
  }

  /** The methods some route answers on `url`. */
  methodsAt(url: string): string[] {
    return Object.keys(this.handlers).filter((method) => this.find(method, url) !== null)
  }
}

// The key is read in place, segment by segment, rather than split into an array of strings.

function segmentCount(key: string): number {
  let count = 1
  for (let at = key.indexOf('/'); at !== -1; at = key.indexOf('/', at + 1)) count++
  return count
}

function matches(pattern: Pattern<unknown>, key: string): boolean {
  let start = 0
  for (const fixed of pattern.fixed) {
    const slash = key.indexOf('/', start)
    const end = slash === -1 ? key.length : slash
    if (fixed !== null && (end - start !== fixed.length || !key.startsWith(fixed, start))) return false
    start = end + 1
  }
  return true
}

function paramsOf(pattern: Pattern<unknown>, key: string): Record<string, string> {
  // A keyed store rather than `{ [name]: … }`, which V8 builds in its runtime.
  const params: Record<string, string> = {}
  let start = 0
  for (const name of pattern.names) {
    const slash = key.indexOf('/', start)
    const end = slash === -1 ? key.length : slash
    if (name !== null) params[name] = key.slice(start, end)
    start = end + 1
  }
  return params
}

function parse<H>(path: string, handler: H): Pattern<H> {
  if (path === '/') return { path, fixed: ['/'], names: [null], handler }
  const segments = path.split('/').slice(1)
  if (!path.startsWith('/') || segments.some((segment) => !PARAM.test(segment) && !FIXED.test(segment))) {
    throw new Error(`route path ${path}: only fixed segments and :name segments are routed`)
  }
  return { path, fixed: segments.map((s) => (PARAM.test(s) ? null : s)), names: segments.map((s) => PARAM.exec(s)?.[1] ?? null), handler }
}

/**
 * The URL's path as its segments joined by `/`: without the query, one leading and one trailing
 * slash (`/v1/tax/ca/` → `v1/tax/ca`); the root path stays `/`.
 */
function keyOf(url: string): string {
  const query = url.indexOf('?', 1)
  let end = query === -1 ? url.length : query
  if (end === 1 && url.charCodeAt(0) === SLASH) return '/'
  const start = url.charCodeAt(0) === SLASH ? 1 : 0
  if (end > start && url.charCodeAt(end - 1) === SLASH) end--
  return url.slice(start, end)
}
