// Cross-origin access for browsers (CORS). A request without an Origin header, or from the
// server's own origin, needs nothing; a page on another origin is let in only when that origin is
// listed in TAXATLAS_CORS_ORIGINS, where `*` opens the public routes (health, freshness, the
// OpenAPI document) to every origin but never the routes that take an API key.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { HttpError } from '../base/errors.ts'

export type CorsPolicy = {
  /** origins let in on every route, as `scheme://host[:port]` */
  origins: ReadonlySet<string>
  /** `*` was listed: any origin may call the public routes */
  anyOriginOnPublic: boolean
}

/** Same origin only: no page on another origin may call the API. */
export const SAME_ORIGIN_ONLY: CorsPolicy = { origins: new Set(), anyOriginOnPublic: false }

/** The policy of a TAXATLAS_CORS_ORIGINS value (comma-separated origins and/or `*`), or the reasons it is not one. */
export function parseCorsOrigins(text: string): { ok: true; policy: CorsPolicy } | { ok: false; problems: string[] } {
  const origins = new Set<string>()
  let anyOriginOnPublic = false
  const problems: string[] = []
  for (const entry of text.split(',').map((part) => part.trim()).filter(Boolean)) {
    if (entry === '*') {
      anyOriginOnPublic = true
      continue
    }
    let origin: string | null = null
    try {
      const url = new URL(entry)
      if ((url.protocol === 'http:' || url.protocol === 'https:') && url.origin === entry.toLowerCase().replace(/\/$/, '')) origin = url.origin
    } catch {
      // reported below
    }
    if (origin === null) problems.push(`"${entry}" is not an origin: write scheme://host[:port] with no path, e.g. https://shop.example.com`)
    else origins.add(origin)
  }
  return problems.length ? { ok: false, problems } : { ok: true, policy: { origins, anyOriginOnPublic } }
}

/** Headers a cross-origin page may read besides the CORS-safelisted ones. */
const EXPOSED = 'X-Request-Id, X-Service-Mode, ETag, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, WWW-Authenticate'

/** Request headers a cross-origin page may send (lower case, as browsers list them in a preflight). */
export const ALLOWED_REQUEST_HEADERS = ['x-api-key', 'authorization', 'content-type', 'content-encoding', 'idempotency-key', 'if-none-match']

/** How long a browser may keep a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE = '600'

export type OriginVerdict = 'same' | 'listed' | 'any' | 'refused'

/** What a request carrying `origin` may do on a public route (no API key), or on a route taking a key. */
export function originVerdict(policy: CorsPolicy, req: IncomingMessage, origin: string, isPublic: boolean): OriginVerdict {
  if (isSameOrigin(origin, req.headers.host)) return 'same'
  if (policy.origins.has(origin)) return 'listed'
  if (isPublic && policy.anyOriginOnPublic) return 'any'
  return 'refused'
}

// The browser's own origin carries the host as the page was loaded from; Host names the same host
// unless a proxy rewrote it (then list the public origin in TAXATLAS_CORS_ORIGINS).
function isSameOrigin(origin: string, host: string | undefined): boolean {
  if (!host) return false
  const start = origin.indexOf('://')
  return start !== -1 && origin.slice(start + 3).toLowerCase() === host.toLowerCase()
}

/**
 * Lets a request from `origin` in, setting the CORS headers of its answer, or returns its refusal
 * (CORS_NOT_ALLOWED). A refusal carries the CORS headers too, so the page can read why.
 */
export function admitOrigin(policy: CorsPolicy, req: IncomingMessage, res: ServerResponse, origin: string, isPublic: boolean): HttpError | null {
  const verdict = originVerdict(policy, req, origin, isPublic)
  if (verdict === 'same') return null
  allowOrigin(res, verdict === 'any' ? '*' : origin)
  return verdict === 'refused' ? originRefused(origin, isPublic, policy) : null
}

function allowOrigin(res: ServerResponse, value: string): void {
  res.setHeader('Access-Control-Allow-Origin', value)
  res.setHeader('Access-Control-Expose-Headers', EXPOSED)
  if (value !== '*') res.setHeader('Vary', 'Origin')
}

function originRefused(origin: string, isPublic: boolean, policy: CorsPolicy): HttpError {
  const reason =
    !isPublic && policy.anyOriginOnPublic
      ? 'is not listed in TAXATLAS_CORS_ORIGINS (`*` opens only the public routes, not those taking an API key)'
      : 'is not listed in TAXATLAS_CORS_ORIGINS'
  return new HttpError('CORS_NOT_ALLOWED', `Requests from the origin ${origin} are not allowed here: it ${reason}.`, { origin })
}

/**
 * Sets the headers answering a CORS preflight (OPTIONS with Origin and Access-Control-Request-Method)
 * on a path whose methods are `allowed`; `isPublicFor` tells whether the route of a method is public,
 * null when the path has no such method. Returns the refusal (405, 403) when the browser must not go on.
 */
export function answerPreflight(
  policy: CorsPolicy,
  req: IncomingMessage,
  res: ServerResponse,
  allowed: readonly string[],
  isPublicFor: (method: string) => boolean | null,
): HttpError | null {
  const origin = req.headers.origin!
  const method = String(req.headers['access-control-request-method']).toUpperCase()
  const isPublic = isPublicFor(method)
  const verdict = originVerdict(policy, req, origin, isPublic ?? true)
  if (verdict !== 'same') allowOrigin(res, verdict === 'any' ? '*' : origin)
  res.setHeader('Vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers')
  if (isPublic === null) {
    return new HttpError('METHOD_NOT_ALLOWED', `${method} is not allowed on ${pathOf(req)}; use ${allowed.join(', ')}.`, { allowed }, { Allow: allowed.join(', ') })
  }
  if (verdict === 'refused') return originRefused(origin, isPublic, policy)
  const requested = String(req.headers['access-control-request-headers'] ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean)
  const refused = requested.filter((name) => !ALLOWED_REQUEST_HEADERS.includes(name))
  if (refused.length) {
    return new HttpError('CORS_NOT_ALLOWED', `The request headers ${refused.join(', ')} are not accepted; send only ${ALLOWED_REQUEST_HEADERS.join(', ')}.`, { origin, headers: refused })
  }
  res.setHeader('Access-Control-Allow-Methods', allowed.join(', '))
  res.setHeader('Access-Control-Allow-Headers', ALLOWED_REQUEST_HEADERS.join(', '))
  res.setHeader('Access-Control-Max-Age', PREFLIGHT_MAX_AGE)
  return null
}

const pathOf = (req: IncomingMessage) => (req.url ?? '/').split('?')[0]

/** True for a CORS preflight rather than a plain OPTIONS request. */
export const isPreflight = (req: IncomingMessage): boolean =>
  req.headers.origin !== undefined && req.headers['access-control-request-method'] !== undefined
