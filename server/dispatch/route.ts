// What a route module declares. One list of these (routes/index.ts) becomes both the Polka routes
// and /openapi.json, so a route is described exactly as it is validated.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { z } from 'zod'
import type { Geocoder } from '../geocoder/geocode-match.ts'
import type { ErrorFormat } from '../base/errors.ts'
import type { JsonText } from '../http/respond.ts'
import type { PortabilitySettings } from '../portability/portability-settings.ts'
import type { QuotaStatus } from '../access/plan-check.ts'
import type { Snapshot } from '../snapshot/open-snapshot.ts'
import type { Account } from '../store/accounts.ts'
import type { StoreParts } from '../store/store.ts'
import type { StoreEngineKind } from '../store/store-engine.ts'
import type { StoreHealth } from '../store/store-health.ts'
import type { LogOutputHealth } from '../base/logger.ts'
import type { SnapshotHealth } from '../snapshot/snapshot-health.ts'
import type { Tier } from '../base/tiers.ts'
import type { WebhooksHealth } from '../webhooks/own-failures.ts'
import type { WebhookSettings } from '../webhooks/webhook-settings.ts'

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export type ResponseSpec = {
  description: string
  /** body schema; omit for bodiless responses (304) */
  schema?: z.ZodType
  /** response headers worth documenting, name → description */
  headers?: Record<string, string>
  /** other media types the same answer may be sent as (a query parameter chooses), each a text body: type → description */
  textTypes?: Record<string, string>
}
export type Responses = Record<number, ResponseSpec>

/** The authenticated caller of a `auth: 'key'` route. */
export type Caller = { account: Account; keyId: string; tier: Tier; quota: QuotaStatus }

export type Auth = 'public' | 'key'

/** Settings handlers read, from the environment (server/settings.ts). */
export type RouteSettings = {
  portability: PortabilitySettings
  /** the engine TAXATLAS_STORE names (reported by /healthz); duckdb when absent */
  storeEngine: StoreEngineKind
  /** the upstream geocoder of address lookups; absent when TAXATLAS_GEOCODER_URL is unset */
  geocoder?: Geocoder
  /** the cron expression of the server's own refresh runs (TAXATLAS_REFRESH_SCHEDULE); null or absent: none */
  refreshSchedule?: string | null
  /** which webhook URLs may be registered (public https addresses only when absent), and a rotated secret's overlap */
  webhooks?: Pick<WebhookSettings, 'allowLoopback' | 'allowPrivate' | 'secretOverlapMs'>
}

export type RouteContext<A extends Auth, P, Q, B> = {
  req: IncomingMessage
  res: ServerResponse
  requestId: string
  params: P
  query: Q
  body: B
  /** the snapshot in service when the request arrived; a swap mid-request does not change it */
  snapshot: Snapshot
  caller: A extends 'key' ? Caller : null
  /** the open store (accounts, usage, the database) for `auth: 'key'` routes */
  store: A extends 'key' ? StoreParts : null
  settings: RouteSettings
  now: number
  /** the state of the store and of the snapshot source now (/healthz) */
  health: () => ServiceHealth
}

export type ServiceHealth = { store: StoreHealth; snapshot: SnapshotHealth; logs: LogOutputHealth; webhooks: WebhooksHealth }

type Out<S> = S extends z.ZodType ? z.output<S> : undefined

export type Reply<R extends Responses> = {
  [S in keyof R & number]: {
    status: S
    body: Out<R[S]['schema']> | JsonText
    headers?: Record<string, string>
    /** on a `cachesReplies` route: this 200 depends only on the URL, the snapshot and the day, and may be kept */
    cacheable?: boolean
  }
}[keyof R & number]

type Handler<A extends Auth, P, Q, B, R extends Responses> = (
  context: RouteContext<A, Out<P>, Out<Q>, Out<B>>,
) => Reply<R> | void | Promise<Reply<R> | void>

export type RouteSpec<A extends Auth, P extends z.ZodType | undefined, Q extends z.ZodType | undefined, B extends z.ZodType | undefined, R extends Responses> = {
  method: Method
  /** Polka pattern: `/v1/tax/:state` */
  path: string
  operationId: string
  summary: string
  description?: string
  tags?: readonly string[]
  /** `key`: needs an API key (X-API-Key or Authorization: Bearer) and is rate limited */
  auth: A
  /** counts one lookup against the quota when it answers 2xx (the quota is checked before the handler) */
  countsAsLookup?: boolean
  /**
   * keeps the 200 replies its handler marks `cacheable` (server/http/reply-cache.ts): a repeat of
   * the same URL is authenticated, limited and counted as usual, then answered from the cache.
   * GET routes only: the cache is keyed by URL.
   */
  cachesReplies?: boolean
  /** still answers for an account whose trial has ended (other key routes then give 402 TRIAL_EXPIRED) */
  servesExpiredTrial?: boolean
  params?: P
  query?: Q
  /** JSON request body schema; the body is read only when this is set */
  body?: B
  /** defaults to TAXATLAS_JSON_BODY_LIMIT (1 MiB) */
  bodyLimitBytes?: number
  /** how this route's errors are written; default the taxatlas envelope. Paths without a route take the format of the routes under their first path segment. */
  errorFormat?: ErrorFormat
  responses: R
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Route = RouteSpec<Auth, any, any, any, Responses> & { handler: Handler<Auth, any, any, any, Responses> }

/**
 * Declares a route; `.handle(fn)` attaches the handler and returns the Route for the registry.
 * The handler returns `{status, body, headers?}` for one of the declared statuses (the body is
 * serialized as JSON; authenticated replies get `Cache-Control: no-store`), or nothing when it
 * wrote the response itself (streaming). Two steps so the reply type is fixed before the
 * handler is checked against it.
 */
export function defineRoute<
  A extends Auth,
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends Responses = Responses,
>(spec: RouteSpec<A, P, Q, B, R>) {
  return {
    handle: (handler: Handler<A, P, Q, B, R>): Route => ({ ...spec, handler }) as unknown as Route,
  }
}
