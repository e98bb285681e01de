// One request to a declared route from its admission to its reply (the Exchange the route's steps
// read and fill in), and what the routes are built with (AppDeps).
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AuthThrottle } from '../access/auth-throttle.ts'
import { setRateLimitHeaders, type RateDecision, type RateLimiter } from '../access/rate-limiter.ts'
import type { Clock } from '../base/clock.ts'
import type { Logger } from '../base/logger.ts'
import type { ServerMetrics } from '../base/metrics.ts'
import type { Tier, Tiers } from '../base/tiers.ts'
import type { CorsPolicy } from '../http/cors.ts'
import type { ReplyCache } from '../http/reply-cache.ts'
import { ensureBaseHeaders, requestState, type RequestState } from '../http/request-context.ts'
import type { Snapshot } from '../snapshot/open-snapshot.ts'
import type { SnapshotHealth } from '../snapshot/snapshot-health.ts'
import type { WebhooksHealth } from '../webhooks/own-failures.ts'
import type { Account } from '../store/accounts.ts'
import type { StoreGate, StoreParts } from '../store/store.ts'
import type { UsageCounter } from '../store/usage.ts'
import type { Caller, Route, RouteSettings, ServiceHealth } from './route.ts'

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
  /** webhook attempts failed for a reason of ours, for /healthz; always ok when absent */
  webhooks?: { health(): WebhooksHealth }
}

export type RoutedRequest = IncomingMessage & { params?: Record<string, string> }

/** A lookup counted before its handler ran, uncounted once if the reply is not 2xx. */
export type Counted = { usage: UsageCounter; accountId: string; month: string; undone: boolean }

export function uncount(counted: Counted | null): void {
  if (counted === null || counted.undone) return
  counted.undone = true
  counted.usage.add(counted.accountId, counted.month, -1)
}

/** One request from its admission to its reply: what the steps learn, for the steps after them. */
export type Exchange = {
  route: Route
  deps: AppDeps
  req: RoutedRequest
  res: ServerResponse
  state: RequestState
  /** the snapshot in service when the request arrived, for all of it */
  snapshot: Snapshot
  now: number
  store: StoreParts | null
  /** the key's account, its key id and tier, once authenticated */
  key: { account: Account; keyId: string; tier: Tier } | null
  caller: Caller | null
  counted: Counted | null
  limit: RateDecision | null
  health: () => ServiceHealth
}

export function exchange(route: Route, deps: AppDeps, req: RoutedRequest, res: ServerResponse, store: StoreParts | null, health: () => ServiceHealth): Exchange {
  const state = requestState(req)
  state.route = route.path
  return {
    route, deps, req, res, state, store,
    snapshot: deps.snapshots.current,
    now: deps.clock(),
    key: null,
    caller: null,
    counted: null,
    limit: null,
    health,
  }
}

// The base and rate-limit headers, before anything is written (a cached reply sends them whole
// instead); setting them again on the error path changes nothing.
export function setHeaders(x: Exchange): void {
  if (x.res.headersSent) return
  ensureBaseHeaders(x.req, x.res)
  if (x.limit) setRateLimitHeaders(x.res, x.limit)
}
