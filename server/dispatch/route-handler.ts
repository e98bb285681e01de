// Turns one declared route into the handler the router calls: its steps chosen once (a key route's
// in key-steps.ts), run in order for each request, the last validating, running the route's own
// handler and sending the reply — every failure through sendError.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { parse as parseQuery } from 'fast-querystring'
import { addRateLimitHeaders } from '../access/rate-limiter.ts'
import { HttpError, type ErrorFormat } from '../base/errors.ts'
import type { LogOutputHealth, Logger } from '../base/logger.ts'
import { readJsonBody } from '../http/body.ts'
import { admitOrigin, SAME_ORIGIN_ONLY } from '../http/cors.ts'
import type { CachedReply } from '../http/reply-cache.ts'
import { ensureBaseHeaders, requestState } from '../http/request-context.ts'
import { addHeaders, baseHeaderList, JsonText, sendError, sendJson, sendWhole } from '../http/respond.ts'
import { validate, validationError, type Location, type ValidationDetail } from '../http/validation.ts'
import type { Snapshot } from '../snapshot/open-snapshot.ts'
import type { SnapshotHealth } from '../snapshot/snapshot-health.ts'
import type { WebhooksHealth } from '../webhooks/own-failures.ts'
import type { StoreParts } from '../store/store.ts'
import { exchange, setHeaders, uncount, type AppDeps, type Exchange, type RoutedRequest } from './exchange.ts'
import { authenticateKey, awaitUsageSync, checkAccountPlan, countLookup, limitRate } from './key-steps.ts'
import type { Auth, Caller, Route, RouteContext, RouteSettings, ServiceHealth } from './route.ts'

const SNAPSHOT_OK: SnapshotHealth = { status: 'ok' }
const LOGS_OK: LogOutputHealth = { status: 'ok', dropped_lines: 0 }
const WEBHOOKS_OK: WebhooksHealth = { status: 'ok', own_failures: 0 }

/**
 * The handler of one declared route: the origin check, then — once the store is open, for a key
 * route — the route's steps (`stepsOf`) in order.
 */
export function routeHandler(route: Route, deps: AppDeps) {
  const health = (): ServiceHealth => ({
    store: deps.store.health(),
    snapshot: deps.snapshots.health?.() ?? SNAPSHOT_OK,
    logs: deps.logger.output?.() ?? LOGS_OK,
    webhooks: deps.webhooks?.health() ?? WEBHOOKS_OK,
  })
  const cors = deps.cors ?? SAME_ORIGIN_ONLY
  const isPublic = route.auth === 'public'
  // A public answer may be kept by shared caches; once it depends on the Origin, it says so.
  const varyOnOrigin = isPublic && cors.origins.size > 0
  const steps = stepsOf(route, deps)
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
    if (isPublic) return run(exchange(route, deps, req, res, null, health), steps, 0)
    const store = deps.store.opened
    if (store !== null) return run(exchange(route, deps, req, res, store, health), steps, 0)
    // Only in the moments after start-up, while the store opens: a 503 if it could not be opened.
    deps.store.ready.then(
      (opened) => run(exchange(route, deps, req, res, opened, health), steps, 0),
      (error) => fail(deps.logger, req, res, error, route.errorFormat),
    )
  }
}

/** A step either lets the request go on (nothing, or a promise of nothing) or answers it. */
const ANSWERED = Symbol('answered')
type StepOutcome = void | typeof ANSWERED
type Step = (x: Exchange) => StepOutcome | Promise<StepOutcome>

/**
 * What a request to the route goes through, chosen once per route: a key route authenticates,
 * is rate limited and checked against the plan (a lookup waits for its account's unsynced counts
 * and is counted); a route that caches replies answers a repeat from the cache; the last step
 * validates, runs the handler and sends its reply.
 */
function stepsOf(route: Route, deps: AppDeps): Step[] {
  const steps: Step[] = []
  if (route.auth === 'key') {
    steps.push(authenticateKey, limitRate)
    if (route.countsAsLookup) steps.push(awaitUsageSync)
    steps.push(checkAccountPlan)
    if (route.countsAsLookup) steps.push(countLookup)
  }
  // Asked even when its budget keeps nothing, so that the metrics count those lookups as misses.
  if (route.cachesReplies && deps.replies) steps.push(replyFromCache)
  steps.push(answer)
  return steps
}

/**
 * Runs the steps from `from`. Steps that return nothing run one after the other in the same turn:
 * a repeated lookup is answered from the cache in the turn its request arrived in, without a
 * promise. A step that returns a promise (waiting for a usage flush, the handler) resumes the
 * others when it settles.
 */
function run(x: Exchange, steps: Step[], from: number): void {
  try {
    for (let i = from; i < steps.length; i++) {
      const outcome = steps[i](x)
      if (outcome === ANSWERED) return
      if (outcome instanceof Promise) {
        outcome.then((settled) => (settled === ANSWERED ? undefined : run(x, steps, i + 1)), (error) => failed(x, error))
        return
      }
    }
  } catch (error) {
    failed(x, error)
  }
}

function failed(x: Exchange, error: unknown): void {
  uncount(x.counted)
  setHeaders(x)
  fail(x.deps.logger, x.req, x.res, error, x.route.errorFormat)
}

/** Sends the kept reply of a repeated URL, with this request's own base and rate-limit headers. */
function replyFromCache(x: Exchange): StepOutcome {
  const { deps } = x
  const hit = deps.replies!.get(x.snapshot.id, x.now, x.req.url!)
  deps.metrics?.replyCache(hit !== undefined)
  if (!hit) return
  const headers = baseHeaderList(x.state.requestId)
  if (x.limit) addRateLimitHeaders(headers, x.limit)
  for (const part of hit.headers) headers.push(part)
  sendWhole(x.res, hit.status, headers, hit.body)
  return ANSWERED
}

/** Validates, runs the handler and sends its reply (keeping it when the route caches replies). */
async function answer(x: Exchange): Promise<StepOutcome> {
  const { route, deps, req, res } = x
  const detail: ValidationDetail[] = []
  const params = route.params ? checked(route.params, 'path', decodeParams(req.params ?? {}), detail) : undefined
  const query = route.query ? checked(route.query, 'query', queryOf(req), detail) : undefined
  const body = route.body ? checked(route.body, 'body', await readJsonBody(req, route.bodyLimitBytes ?? deps.jsonBodyLimit), detail) : undefined
  if (detail.length) throw validationError(detail)

  const reply = await route.handler(new HandlerContext(x, params, query, body))
  if (!reply) {
    if (!res.headersSent) throw new Error(`${route.method} ${route.path} returned no reply and wrote no response`)
    return ANSWERED
  }
  if (reply.status >= 400) uncount(x.counted)
  let replyBody = reply.body
  if (route.cachesReplies && deps.replies?.keeps && reply.cacheable && reply.status === 200) {
    const text = replyBody instanceof JsonText ? replyBody.text : JSON.stringify(replyBody)
    deps.replies.set(x.snapshot.id, x.now, req.url!, cachedReply(reply.status, text, reply.headers))
    replyBody = new JsonText(text)
  }
  sendReply(x, reply.status, replyBody, reply.headers)
  return ANSWERED
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

/** The query string's parameters, a repeated one as an array. */
function queryOf(req: IncomingMessage): Record<string, unknown> {
  const url = req.url ?? ''
  const start = url.indexOf('?')
  return parseQuery(start === -1 ? '' : url.slice(start + 1))
}

function decodeParams(params: Record<string, string>): Record<string, string> {
  const decoded: Record<string, string> = {}
  for (const name in params) {
    const value = params[name]
    if (!value.includes('%')) {
      decoded[name] = value
      continue
    }
    try {
      decoded[name] = decodeURIComponent(value)
    } catch {
      decoded[name] = value
    }
  }
  return decoded
}
