// Turns one declared route into a Polka handler: authenticate, rate-limit, check the plan,
// validate, count the lookup, run the handler, send the reply — every failure through sendError.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { parse as parseQuery } from 'node:querystring'
import { authenticate, presentedKey } from '../access/credentials.ts'
import type { AuthThrottle } from '../access/auth-throttle.ts'
import { checkPlan, quotaStatus } from '../access/plan-check.ts'
import { addRateLimitHeaders, rateLimited, setRateLimitHeaders, type RateDecision, type RateLimiter } from '../access/rate-limiter.ts'
import type { Clock } from '../base/clock.ts'
import type { LogOutputHealth, Logger } from '../base/logger.ts'
import type { ServerMetrics } from '../base/metrics.ts'
import type { Auth, Caller, Route, RouteContext, RouteSettings, ServiceHealth } from './route.ts'
import type { SnapshotHealth } from '../snapshot/snapshot-health.ts'
import type { Snapshot } from '../snapshot/open-snapshot.ts'
import type { StoreGate, StoreParts } from '../store/store.ts'
import type { UsageCounter } from '../store/usage.ts'
import type { Tier, Tiers } from '../base/tiers.ts'
import type { Account } from '../store/accounts.ts'
import { readJsonBody } from '../http/body.ts'
import { admitOrigin, SAME_ORIGIN_ONLY, type CorsPolicy } from '../http/cors.ts'
import { HttpError, type ErrorFormat } from '../base/errors.ts'
import type { CachedReply, ReplyCache } from '../http/reply-cache.ts'
import { ensureBaseHeaders, requestState, type RequestState } from '../http/request-context.ts'
import { addHeaders, baseHeaderList, JsonText, sendError, sendJson, sendWhole } from '../http/respond.ts'
import { validate, validationError, type Location, type ValidationDetail } from '../http/validation.ts'

export type AppDeps = {
  /** the snapshot in service, and the state of its source (absent: always ok) */
  snapshots: { readonly current: Snapshot; health?(): SnapshotHealth }
  /** accounts and usage; key routes await it (the store opens after listen), public routes never touch it */
  store: StoreGate
  limiter: RateLimiter
  tiers: Tiers
  jsonBodyLimit: number
  routeSettings: RouteSettings
  logger: Logger
  clock: Clock
  /** replies of `cachesReplies` routes; none kept when absent */
  replies?: ReplyCache
  /** request and reply-cache counts, when metrics are on */
  metrics?: ServerMetrics
  /** failed authentication per client address; none counted when absent */
  authThrottle?: AuthThrottle
  /** which other origins' pages may call the routes (TAXATLAS_CORS_ORIGINS); same origin only when absent */
  cors?: CorsPolicy
}

export type RoutedRequest = IncomingMessage & { params?: Record<string, string> }

const SNAPSHOT_OK: SnapshotHealth = { status: 'ok' }
const LOGS_OK: LogOutputHealth = { status: 'ok', dropped_lines: 0 }

export function routeHandler(route: Route, deps: AppDeps) {
  const health = (): ServiceHealth => ({ store: deps.store.health(), snapshot: deps.snapshots.health?.() ?? SNAPSHOT_OK, logs: deps.logger.output?.() ?? LOGS_OK })
  const cors = deps.cors ?? SAME_ORIGIN_ONLY
  const isPublic = route.auth === 'public'
  // A public answer may be kept by shared caches; once it depends on the Origin, it says so.
  const varyOnOrigin = isPublic && cors.origins.size > 0
  return (req: RoutedRequest, res: ServerResponse) => {
    // Requests without an Origin (not from a browser page, or a same-origin GET) pay this check only.
    const origin = req.headers.origin
    if (origin !== undefined || varyOnOrigin) {
      if (varyOnOrigin) res.setHeader('Vary', 'Origin')
      const refusal = origin === undefined ? null : admitOrigin(cors, req, res, origin, isPublic)
      if (refusal) {
        requestState(req).route = route.path
        return fail(deps.logger, req, res, refusal, route.errorFormat)
      }
    }
    const store = deps.store.opened
    if (route.auth === 'key' && store === null) {
      // Only in the moments after start-up, while the store opens: a 503 if it could not be opened.
      deps.store.ready.then(
        (opened) => serve(exchange(route, deps, req, res, opened, health)),
        (error) => fail(deps.logger, req, res, error, route.errorFormat),
      )
      return
    }
    serve(exchange(route, deps, req, res, route.auth === 'key' ? store : null, health))
  }
}

/** A lookup counted before its handler ran, uncounted once if the reply is not 2xx. */
type Counted = { usage: UsageCounter; accountId: string; month: string; undone: boolean }

function uncount(counted: Counted | null): void {
  if (counted === null || counted.undone) return
  counted.undone = true
  counted.usage.add(counted.accountId, counted.month, -1)
}

/** One request from its admission to its reply. */
type Exchange = {
  route: Route
  deps: AppDeps
  req: RoutedRequest
  res: ServerResponse
  state: RequestState
  /** the snapshot in service when the request arrived, for all of it */
  snapshot: Snapshot
  now: number
  store: StoreParts | null
  caller: Caller | null
  counted: Counted | null
  limit: RateDecision | null
  /** the URL, on a route that caches replies (only GET routes do) */
  cacheKey: string | null
  health: () => ServiceHealth
}

function exchange(route: Route, deps: AppDeps, req: RoutedRequest, res: ServerResponse, store: StoreParts | null, health: () => ServiceHealth): Exchange {
  const state = requestState(req)
  state.route = route.path
  return {
    route, deps, req, res, state, store,
    snapshot: deps.snapshots.current,
    now: deps.clock(),
    caller: null,
    counted: null,
    limit: null,
    cacheKey: route.cachesReplies && deps.replies ? req.url! : null,
    health,
  }
}

// Admission and a cached reply run without awaiting anything: a repeated lookup is answered in
// the turn its request arrived in, without a promise. The one exception: on a store shared by
// several nodes, a lookup of an account that already holds its share of unsynced counts on this
// node waits for them to be flushed (store/usage.ts).
function serve(x: Exchange): void {
  let admitted: boolean | Promise<boolean>
  try {
    admitted = admit(x)
  } catch (error) {
    failed(x, error)
    return
  }
  if (admitted === true) return
  if (admitted === false) {
    respond(x).catch((error) => failed(x, error))
    return
  }
  admitted.then(
    (answered) => (answered ? undefined : respond(x)),
  ).catch((error) => failed(x, error))
}

function failed(x: Exchange, error: unknown): void {
  uncount(x.counted)
  setHeaders(x)
  fail(x.deps.logger, x.req, x.res, error, x.route.errorFormat)
}

// The base and rate-limit headers, before anything is written (a cached reply sends them whole
// instead); setting them again on the error path changes nothing.
function setHeaders(x: Exchange): void {
  if (x.res.headersSent) return
  ensureBaseHeaders(x.req, x.res)
  if (x.limit) setRateLimitHeaders(x.res, x.limit)
}

/** Authenticates, rate-limits, checks the plan and counts the lookup; true when answered from the reply cache. */
function admit(x: Exchange): boolean | Promise<boolean> {
  const { route, deps, req, state, store } = x
  if (route.auth === 'key') {
    const { accounts, usage } = store!
    const throttle = deps.authThrottle
    const refused = throttle?.refusal(req, x.now)
    if (refused) throw refused
    let authenticated
    try {
      authenticated = authenticate(req, accounts)
    } catch (error) {
      if (throttle && presentedKey(req) !== null) throttle.failed(req, x.now)
      throw error
    }
    const { account, keyId } = authenticated
    state.accountId = account.id
    const tier = deps.tiers[account.tier]
    const limit = (x.limit = deps.limiter.take(keyId, tier, x.now))
    if (!limit.allowed) throw rateLimited(limit)
    if (route.countsAsLookup && usage.mustSync(account.id, tier.lookupQuota)) return admitAfterSync(x, account, keyId, tier, usage)
    return admitPlan(x, account, keyId, tier, usage)
  }
  return answerCached(x)
}

/**
 * Flushes until this node may count the account's lookup, then admits it. Checked again after each
 * flush: requests that waited on the same flush are admitted one at a time, each after its
 * predecessor's count reached the database.
 */
async function admitAfterSync(x: Exchange, account: Account, keyId: string, tier: Tier, usage: UsageCounter): Promise<boolean> {
  while (usage.mustSync(account.id, tier.lookupQuota)) await usage.flush()
  return admitPlan(x, account, keyId, tier, usage)
}

/** Checks the plan and counts the lookup, then answers from the reply cache when it can. */
function admitPlan(x: Exchange, account: Account, keyId: string, tier: Tier, usage: UsageCounter): boolean {
  const quota = quotaStatus(account, tier, usage, x.now)
  checkPlan(quota, x.route)
  x.caller = { account, keyId, tier, quota }
  if (x.route.countsAsLookup) {
    // Counted before the handler runs so concurrent requests cannot overrun the quota; a
    // request that does not end in 2xx is uncounted.
    usage.add(account.id, quota.month, 1)
    x.counted = { usage, accountId: account.id, month: quota.month, undone: false }
  }
  return answerCached(x)
}

/** Sends the kept reply of a repeated lookup (true); false when the handler is to answer. */
function answerCached(x: Exchange): boolean {
  const { deps, state } = x
  if (x.cacheKey !== null) {
    const hit = deps.replies!.get(x.snapshot.id, x.now, x.cacheKey)
    deps.metrics?.replyCache(hit !== undefined)
    if (hit) {
      const headers = baseHeaderList(state.requestId)
      if (x.limit) addRateLimitHeaders(headers, x.limit)
      for (const part of hit.headers) headers.push(part)
      sendWhole(x.res, hit.status, headers, hit.body)
      return true
    }
  }
  // The base and rate-limit headers are written with the reply (sendReply), or set when the
  // handler reaches for the response itself or fails.
  return false
}

/** Validates, runs the handler and sends its reply (keeping it when the route caches replies). */
async function respond(x: Exchange): Promise<void> {
  const { route, deps, req, res, snapshot, now, cacheKey } = x
  const detail: ValidationDetail[] = []
  const params = route.params ? checked(route.params, 'path', decodeParams(req.params ?? {}), detail) : undefined
  const query = route.query ? checked(route.query, 'query', queryOf(req), detail) : undefined
  const body = route.body ? checked(route.body, 'body', await readJsonBody(req, route.bodyLimitBytes ?? deps.jsonBodyLimit), detail) : undefined
  if (detail.length) throw validationError(detail)

  const reply = await route.handler(new HandlerContext(x, params, query, body))
  if (!reply) {
    if (!res.headersSent) throw new Error(`${route.method} ${route.path} returned no reply and wrote no response`)
    return
  }
  if (reply.status >= 400) uncount(x.counted)
  let replyBody = reply.body
  if (cacheKey !== null && reply.cacheable && reply.status === 200) {
    const text = replyBody instanceof JsonText ? replyBody.text : JSON.stringify(replyBody)
    deps.replies!.set(snapshot.id, now, cacheKey, cachedReply(reply.status, text, reply.headers))
    replyBody = new JsonText(text)
  }
  sendReply(x, reply.status, replyBody, reply.headers)
}

/**
 * What a handler is given. A handler that writes the response itself finds the headers every
 * response carries set when it first reaches for `res`. (A class: an accessor on an object
 * literal would make every context a slow dictionary object.)
 */
class HandlerContext implements RouteContext<Auth, unknown, unknown, unknown> {
  readonly #x: Exchange
  readonly req: RoutedRequest
  readonly requestId: string
  readonly snapshot: Snapshot
  readonly now: number
  readonly caller: Caller | null
  readonly store: StoreParts | null
  readonly settings: RouteSettings
  readonly health: () => ServiceHealth

  constructor(x: Exchange, readonly params: unknown, readonly query: unknown, readonly body: unknown) {
    this.#x = x
    this.req = x.req
    this.requestId = x.state.requestId
    this.snapshot = x.snapshot
    this.now = x.now
    this.caller = x.caller
    this.store = x.store
    this.settings = x.deps.routeSettings
    this.health = x.health
  }

  get res(): ServerResponse {
    setHeaders(this.#x)
    return this.#x.res
  }
}

/**
 * The reply with all its headers in one writeHead (the base and rate-limit headers, the reply's
 * own, Content-Length): Node then stores none of them one by one. Through the headers set on the
 * response when something set them already, and for a reply without a body.
 */
function sendReply(x: Exchange, status: number, body: unknown, own: Record<string, string> | undefined): void {
  if (x.state.baseHeadersSet || x.res.headersSent || status === 204 || status === 304 || body === undefined) {
    setHeaders(x)
    sendJson(x.res, status, body, own)
    return
  }
  const text = body instanceof JsonText ? body.text : JSON.stringify(body)
  const headers = baseHeaderList(x.state.requestId)
  if (x.limit) addRateLimitHeaders(headers, x.limit)
  if (own) addHeaders(headers, own)
  headers.push('Content-Length', String(Buffer.byteLength(text)))
  x.state.baseHeadersSet = true
  sendWhole(x.res, status, headers, text)
}

function cachedReply(status: number, text: string, own: Record<string, string> = {}): CachedReply {
  const body = Buffer.from(text)
  const headers: string[] = []
  for (const name in own) headers.push(name, own[name])
  headers.push('Content-Length', String(body.length))
  return { status, body, headers }
}

/** The validated value, or undefined with the failures added to `detail`. */
function checked(schema: NonNullable<Route['query']>, location: Location, raw: unknown, detail: ValidationDetail[]): unknown {
  const result = validate(schema, location, raw)
  if (result.ok) return result.value
  detail.push(...result.detail)
  return undefined
}

/** The one error path: logs what the client is not shown, then sends the envelope (or the route's error format). */
export function fail(logger: Logger, req: IncomingMessage, res: ServerResponse, error: unknown, format?: ErrorFormat): void {
  const { requestId } = requestState(req)
  ensureBaseHeaders(req, res)
  if (!(error instanceof HttpError)) {
    // A client that went away mid-body fails the read: nothing is wrong with the server, and the access log marks it aborted.
    if (req.destroyed && res.socket?.destroyed !== false) logger.info('request_aborted', { support_reference: requestId, reason: (error as Error)?.message })
    else logger.error('request_failed', { support_reference: requestId, error: (error as Error)?.message, stack: (error as Error)?.stack })
  }
  try {
    sendError(res, error, requestId, format)
  } catch {
    res.destroy()
  }
}

/** The query string's parameters (a repeated one as an array), as Polka would have put them in req.query. */
function queryOf(req: IncomingMessage): Record<string, unknown> {
  const url = req.url ?? ''
  const start = url.indexOf('?')
  return parseQuery(start === -1 ? '' : url.slice(start + 1))
}

function decodeParams(params: Record<string, string>): Record<string, string> {
  const decoded: Record<string, string> = {}
  for (const name in params) {
    const value = params[name]
    try {
      decoded[name] = decodeURIComponent(value)
    } catch {
      decoded[name] = value
    }
  }
  return decoded
}
