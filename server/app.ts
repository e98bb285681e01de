// The application, built from already-opened parts and never listening itself: main.ts (or a
// test, on port 0) hands `app.handler` to an http.Server.
import { RateLimiter } from './access/rate-limiter.ts'
import { AuthThrottle } from './access/auth-throttle.ts'
import type { ServerSettings } from './settings.ts'
import { systemClock, type Clock } from './base/clock.ts'
import { consoleFiles } from './console/console-files.ts'
import type { CorsPolicy } from './http/cors.ts'
import { createCensusGeocoder } from './geocoder/census-geocoder.ts'
import type { GeocoderSettings } from './geocoder/geocoder-settings.ts'
import { ReplyCache } from './http/reply-cache.ts'
import { buildRouter, type Router } from './dispatch/router.ts'
import type { Logger } from './base/logger.ts'
import type { ServerMetrics } from './base/metrics.ts'
import { API_ROUTES } from './routes/index.ts'
import { openApiRoute } from './routes/openapi.ts'
import type { Route } from './dispatch/route.ts'
import { PortabilityEnv, portabilitySettingsOf, type PortabilitySettings } from './portability/portability-settings.ts'
import type { AppDeps } from './dispatch/exchange.ts'
import type { StoreGate } from './store/store.ts'
import type { StoreLocation } from './store/store-location.ts'
import type { Tiers } from './base/tiers.ts'

export type AppOptions = {
  /** anything with the snapshot in service (read once per request), and its source's health */
  snapshots: AppDeps['snapshots']
  /** accounts and usage, possibly still opening: key routes wait for it, public routes never do */
  store: StoreGate
  /** `portability` defaults to its settings' defaults (TAXATLAS_NEXUS_BAND etc. unset); no `geocoder`, none is asked */
  settings: {
    tiers: Tiers
    jsonBodyLimit: number
    portability?: PortabilitySettings
    geocoder?: GeocoderSettings | null
    /** bytes of lookup replies kept (TAXATLAS_REPLY_CACHE_MB); none when absent or 0 */
    replyCacheBytes?: number
    /** where the store is (its engine is reported by /healthz); a DuckDB file when absent */
    store?: StoreLocation
    /** failed authentication per client address; not throttled when absent */
    authFailures?: ServerSettings['authFailures']
    /** which other origins' pages may call the API; same origin only when absent */
    cors?: CorsPolicy
    /** the built web console, served at /; none when absent or null */
    consoleDir?: string | null
    /** which webhook URLs may be registered; public https addresses only when absent */
    webhooks?: ServerSettings['webhooks']
  }
  logger: Logger
  clock?: Clock
  /** the API's routes; defaults to the registry (routes/index.ts) */
  routes?: Route[]
  /** the per-key request-rate limiter; a new one of this node alone by default */
  limiter?: RateLimiter
  /** request and reply-cache counts; none kept when absent */
  metrics?: ServerMetrics
  /** webhook attempts failed for a reason of ours, for /healthz; always ok when absent */
  webhooks?: AppDeps['webhooks']
}

export function createApp(options: AppOptions): Router {
  const clock = options.clock ?? systemClock
  const routes = options.routes ?? API_ROUTES
  return buildRouter([...routes, openApiRoute(routes)], {
    snapshots: options.snapshots,
    store: options.store,
    limiter: options.limiter ?? new RateLimiter(clock),
    tiers: options.settings.tiers,
    jsonBodyLimit: options.settings.jsonBodyLimit,
    routeSettings: {
      storeEngine: options.settings.store?.kind ?? 'duckdb',
      portability: options.settings.portability ?? portabilitySettingsOf(PortabilityEnv.parse({})),
      ...(options.settings.geocoder ? { geocoder: createCensusGeocoder(options.settings.geocoder) } : {}),
      ...(options.settings.webhooks ? { webhooks: options.settings.webhooks } : {}),
    },
    logger: options.logger,
    clock,
    replies: new ReplyCache(options.settings.replyCacheBytes ?? 0),
    metrics: options.metrics,
    webhooks: options.webhooks,
    cors: options.settings.cors,
    ...(options.settings.authFailures ? { authThrottle: new AuthThrottle(options.settings.authFailures, clock) } : {}),
  }, { fallback: consoleFiles(options.settings.consoleDir ?? null, options.logger) ?? undefined })
}
