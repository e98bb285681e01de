// Turns one declared route into a Polka handler: authenticate, rate-limit, check the plan,
// validate, count the lookup, run the handler, send the reply — every failure through sendError.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { authenticate } from '../access/credentials.ts'
import { checkPlan, quotaStatus } from '../access/plan-check.ts'
import { rateLimited, rateLimitHeaders, type RateLimiter } from '../access/rate-limiter.ts'
import { monthOf, type Clock } from '../clock.ts'
import type { Logger } from '../logger.ts'
import type { Caller, Route, RouteSettings } from '../routes/route.ts'
import type { Snapshot } from '../snapshot/open-snapshot.ts'
import type { StoreGate, StoreParts } from '../store/store.ts'
import type { Tiers } from '../tiers.ts'
import { readJsonBody } from './body.ts'
import { HttpError, type ErrorFormat } from './errors.ts'
import { requestState } from './request-context.ts'
import { sendError, sendJson } from './respond.ts'
import { validate, validationError, type Location, type ValidationDetail } from './validation.ts'

export type AppDeps = {
  snapshots: { readonly current: Snapshot }
  /** accounts and usage; key routes await it (the store opens after listen), public routes never touch it */
  store: StoreGate
  limiter: RateLimiter
  tiers: Tiers
  jsonBodyLimit: number
  routeSettings: RouteSettings
  logger: Logger
  clock: Clock
}

export type RoutedRequest = IncomingMessage & { params?: Record<string, string>; query?: Record<string, unknown> }

export function routeHandler(route: Route, deps: AppDeps) {
  return (req: RoutedRequest, res: ServerResponse) => {
    handle(route, deps, req, res).catch((error) => fail(deps.logger, req, res, error, route.errorFormat))
  }
}

async function handle(route: Route, deps: AppDeps, req: RoutedRequest, res: ServerResponse) {
  const state = requestState(req)
  state.route = route.path
  const snapshot = deps.snapshots.current
  const now = deps.clock()
  let uncount = () => {}
  try {
    let caller: Caller | null = null
    let store: StoreParts | null = null
    if (route.auth === 'key') {
      // Resolved once the store is open; a 503 when it could not be opened.
      store = await deps.store.ready
      const { accounts, usage } = store
      const { account, keyId } = authenticate(req, accounts)
      state.accountId = account.id
      const tier = deps.tiers[account.tier]
      const decision = deps.limiter.take(keyId, tier)
      for (const [name, value] of Object.entries(rateLimitHeaders(decision))) res.setHeader(name, value)
      if (!decision.allowed) throw rateLimited(decision)
      const quota = quotaStatus(account, tier, usage, now)
      checkPlan(quota, route)
      caller = { account, keyId, tier, quota }
      if (route.countsAsLookup) {
        // Counted before the handler runs so concurrent requests cannot overrun the quota; a
        // request that does not end in 2xx is uncounted.
        const month = monthOf(now)
        usage.add(account.id, month, 1)
        uncount = () => {
          uncount = () => {}
          usage.add(account.id, month, -1)
        }
      }
    }
    const detail: ValidationDetail[] = []
    const check = (schema: Route['query'], location: Location, raw: unknown) => {
      if (!schema) return undefined
      const result = validate(schema, location, raw)
      if (result.ok) return result.value
      detail.push(...result.detail)
      return undefined
    }
    const params = check(route.params, 'path', decodeParams(req.params ?? {}))
    const query = check(route.query, 'query', req.query ?? {})
    const body = route.body ? check(route.body, 'body', await readJsonBody(req, route.bodyLimitBytes ?? deps.jsonBodyLimit)) : undefined
    if (detail.length) throw validationError(detail)

    const reply = await route.handler({ req, res, requestId: state.requestId, params, query, body, snapshot, caller, store, settings: deps.routeSettings, now })
    if (reply) {
      if (reply.status >= 400) uncount()
      sendJson(res, reply.status, reply.body, reply.headers)
    } else if (!res.headersSent) {
      throw new Error(`${route.method} ${route.path} returned no reply and wrote no response`)
    }
  } catch (error) {
    uncount()
    throw error
  }
}

/** The one error path: logs what the client is not shown, then sends the envelope (or the route's error format). */
export function fail(logger: Logger, req: IncomingMessage, res: ServerResponse, error: unknown, format?: ErrorFormat): void {
  const { requestId } = requestState(req)
  if (!(error instanceof HttpError)) {
    logger.error('request_failed', { support_reference: requestId, error: (error as Error)?.message, stack: (error as Error)?.stack })
  }
  try {
    sendError(res, error, requestId, format)
  } catch {
    res.destroy()
  }
}

function decodeParams(params: Record<string, string>): Record<string, string> {
  const decoded: Record<string, string> = {}
  for (const [name, value] of Object.entries(params)) {
    try {
      decoded[name] = decodeURIComponent(value)
    } catch {
      decoded[name] = value
    }
  }
  return decoded
}
