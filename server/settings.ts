// Server settings, read from the environment once and validated before anything opens or listens.
import path from 'node:path'
import * as z from 'zod'
import { spillPathOf } from './store/usage-spill.ts'
import { readGeocoderSettings, type GeocoderSettings } from './geocoder/geocoder-settings.ts'
import { PortabilityEnv, portabilitySettingsOf, type PortabilitySettings } from './portability/portability-settings.ts'
import { settingsError } from './base/settings-error.ts'
import { parseCorsOrigins, type CorsPolicy } from './http/cors.ts'
import { resolveTiers, TiersOverride, type Tiers } from './base/tiers.ts'
import { hasOtherScheme, isPostgresUrl, redactedUrl, type StoreLocation } from './store/store-location.ts'
import { RefreshEnv, refreshSettingsOf, type RefreshSettings } from './snapshot/refresh-settings.ts'
import { endpointFilePath } from './admin/endpoint-file.ts'
import { WebhookEnv, webhookSettingsOf, type WebhookSettings } from './webhooks/webhook-settings.ts'

const port = z.coerce.number().int().min(0).max(65_535)

const ServerEnv = z.object({
  PORT: port.default(8080).describe('public listener port (0 = any free port)'),
  HOST: z.string().min(1).default('127.0.0.1').describe('public listener address'),
  TAXATLAS_ARTIFACTS: z.string().min(1).default('artifacts').describe('published snapshots (CURRENT pointer inside)'),
  TAXATLAS_STORE: z
    .string()
    .min(1)
    .default('var/taxatlas.duckdb')
    .refine((value) => !hasOtherScheme(value), {
      message: 'is neither a file path nor a PostgreSQL URL: give a DuckDB file path (var/taxatlas.duckdb) or postgres://user:password@host:5432/database (postgresql:// also)',
    })
    .describe('the store of accounts, keys, usage and transactions: a DuckDB file path (one server), or a postgres:// URL (any number of servers)'),
  TAXATLAS_STORE_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(10).describe('PostgreSQL: connections each server keeps'),
  TAXATLAS_STORE_POLL_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(5_000)
    .describe('PostgreSQL: how often a server re-reads changed accounts and keys without a notification, and announces itself to the others'),
  TAXATLAS_USAGE_UNSYNCED_PERCENT: z.coerce
    .number()
    .min(0)
    .max(100)
    .default(1)
    .describe("PostgreSQL: lookups a server may count for an account before the database has seen them, as a percentage of the account's quota (at least 1)"),
  TAXATLAS_METRICS_TOKEN: z
    .string()
    .min(16, 'at least 16 characters: it is the only thing between /metrics and anyone who can reach the port')
    .optional()
    .describe('turns metrics on: GET /metrics (Prometheus) answers a scraper that sends Authorization: Bearer <this token>; unset, there is no /metrics'),
  TAXATLAS_ADMIN_ENDPOINT_FILE: z
    .string()
    .min(1)
    .optional()
    .describe('where the server writes its admin listener URL and token; default <store>.admin.json for a DuckDB store, none for PostgreSQL'),
  TAXATLAS_STORE_MEMORY_LIMIT: z
    .string()
    .regex(/^\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i, 'a size such as 256MB or 1GB')
    .default('256MB')
    .describe("DuckDB's buffer memory for the store: bounds the server's memory however many transactions are stored"),
  TAXATLAS_STORE_INIT: z
    .enum(['0', '1', 'false', 'true'])
    .default('0')
    .transform((value) => value === '1' || value === 'true')
    .describe('1: create an empty store even though a store was created at TAXATLAS_STORE before and its file is missing (same as --init)'),
  TAXATLAS_STORE_RETRY_MAX_MS: z.coerce.number().int().min(250).default(30_000).describe('longest wait between two attempts to open the store, or to reopen it after DuckDB gave up on it'),
  TAXATLAS_STORE_CHECK_MS: z.coerce.number().int().positive().default(1_000).describe("how often the store file's identity is checked between writes"),
  TAXATLAS_ADMIN_PORT: port.optional().describe('loopback admin listener port; default PORT+1 (0 when PORT is 0)'),
  TAXATLAS_TIERS: z
    .string()
    .optional()
    .describe('JSON overrides of the tier table, e.g. {"starter":{"lookup_quota":20000,"rate_per_second":20}}'),
  TAXATLAS_USAGE_FLUSH_MS: z.coerce.number().int().positive().default(1_000).describe('how often usage counts are written'),
  TAXATLAS_USAGE_SPILL_FILE: z.string().min(1).optional().describe('where a shutdown keeps usage counts the store did not take in its grace period; default: beside a DuckDB store, none for PostgreSQL'),
  TAXATLAS_SNAPSHOT_POLL_MS: z.coerce.number().int().positive().default(5_000).describe('CURRENT pointer poll interval'),
  TAXATLAS_SNAPSHOT_REREPORT_MS: z.coerce.number().int().positive().default(600_000).describe('how often a CURRENT pointer that stays bad is logged again (it is logged at once when it turns bad)'),
  TAXATLAS_JSON_BODY_LIMIT: z.coerce.number().int().positive().default(1_048_576).describe('largest JSON request body, bytes'),
  TAXATLAS_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000).describe('grace period on SIGTERM'),
  TAXATLAS_REPLY_CACHE_MB: z.coerce.number().min(0).max(4096).default(64).describe('memory for repeated simple lookup answers (0: none kept)'),
  TAXATLAS_MAX_CONNECTIONS_PER_CLIENT: z.coerce.number().int().min(0).default(256).describe('connections one client address may hold open at once; more are closed on arrival (0: no cap, e.g. behind a reverse proxy)'),
  TAXATLAS_AUTH_FAILURE_BURST: z.coerce.number().int().positive().default(20).describe('invalid API keys one client address may send at once before it is answered 429'),
  TAXATLAS_AUTH_FAILURE_RATE: z.coerce.number().positive().default(1).describe('invalid API keys per second one client address may send after its burst'),
  TAXATLAS_AUTH_FAILURE_ADDRESSES: z.coerce.number().int().positive().default(10_000).describe('client addresses whose failures are remembered at most'),
  TAXATLAS_CLIENT_ADDRESS_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]+$/, 'a header name')
    .optional()
    .describe('behind a reverse proxy: the header naming the client (e.g. X-Forwarded-For; its rightmost address is used); unset: the connection address'),
  TAXATLAS_CORS_ORIGINS: z
    .string()
    .default('')
    .describe('origins whose pages may call the API, comma-separated (https://shop.example.com); * lets any origin call the public routes only; empty: same origin only'),
  TAXATLAS_CONSOLE_DIR: z.string().default('build/console').describe('the built web console served at / (make serve builds it); empty: no console'),
  TAXATLAS_REQUEST_TIMEOUT_MS: z.coerce.number().int().positive().default(300_000).describe('how long a request body may take to arrive (a streamed backfill has an idle timeout instead)'),
  ...PortabilityEnv.shape,
  ...RefreshEnv.shape,
  ...WebhookEnv.shape,
})

export type ServerSettings = {
  port: number
  host: string
  adminPort: number
  artifactsDir: string
  store: StoreLocation
  /** the DuckDB file, or the PostgreSQL URL without its password (for logs) */
  storePath: string
  /** the admin endpoint file (admin/endpoint-file.ts); null: not written */
  adminEndpointFile: string | null
  storePoolSize: number
  storePollMs: number
  /** TAXATLAS_METRICS_TOKEN; null: no metrics */
  metricsToken: string | null
  /** TAXATLAS_USAGE_UNSYNCED_PERCENT as a fraction */
  usageUnsyncedShare: number
  storeMemoryLimit: string
  /** create an empty store where a store was before and its file is missing (--init) */
  storeInit: boolean
  storeRetryMaxMs: number
  storeCheckMs: number
  tiers: Tiers
  usageFlushMs: number
  /** usage-spill.ts; null: counts a shutdown cannot write are logged as lost */
  usageSpillFile: string | null
  snapshotPollMs: number
  snapshotRereportMs: number
  jsonBodyLimit: number
  shutdownTimeoutMs: number
  /** connection-cap.ts; 0: none */
  maxConnectionsPerClient: number
  /** bytes of simple lookup answers kept for repeats (http/reply-cache.ts) */
  replyCacheBytes: number
  /** a request body must have arrived this long after its headers (http/body-time.ts) */
  requestTimeoutMs: number
  /** failed authentication per client address (access/auth-throttle.ts) */
  authFailures: { perSecond: number; burst: number; maxAddresses: number; addressHeader: string | null }
  portability: PortabilitySettings
  /** null: no upstream geocoder (TAXATLAS_GEOCODER_URL unset) */
  geocoder: GeocoderSettings | null
  /** which other origins' pages may call the API (http/cors.ts) */
  cors: CorsPolicy
  /** the built web console's directory; null: none served */
  consoleDir: string | null
  /** null: the server never refreshes by itself (TAXATLAS_REFRESH_SCHEDULE unset) */
  refresh: RefreshSettings | null
  /** webhook URLs allowed, delivery timeout, retries and disabling (webhooks/webhook-settings.ts) */
  webhooks: WebhookSettings
  /** the environment a scheduled refresh run is started with (the pipeline reads its settings there) */
  env: NodeJS.ProcessEnv
}

export function readServerSettings(env: NodeJS.ProcessEnv = process.env): ServerSettings {
  const parsed = ServerEnv.safeParse(env)
  if (!parsed.success) throw settingsError(parsed.error.issues)
  const e = parsed.data
  const store: StoreLocation = isPostgresUrl(e.TAXATLAS_STORE) ? { kind: 'postgres', url: e.TAXATLAS_STORE } : { kind: 'duckdb', file: path.resolve(e.TAXATLAS_STORE) }
  return {
    port: e.PORT,
    host: e.HOST,
    adminPort: e.TAXATLAS_ADMIN_PORT ?? (e.PORT === 0 ? 0 : e.PORT + 1),
    artifactsDir: path.resolve(e.TAXATLAS_ARTIFACTS),
    store,
    storePath: store.kind === 'duckdb' ? store.file : redactedUrl(store.url),
    adminEndpointFile: e.TAXATLAS_ADMIN_ENDPOINT_FILE ? path.resolve(e.TAXATLAS_ADMIN_ENDPOINT_FILE) : store.kind === 'duckdb' ? endpointFilePath(store.file) : null,
    storePoolSize: e.TAXATLAS_STORE_POOL_SIZE,
    storePollMs: e.TAXATLAS_STORE_POLL_MS,
    metricsToken: e.TAXATLAS_METRICS_TOKEN ?? null,
    usageUnsyncedShare: e.TAXATLAS_USAGE_UNSYNCED_PERCENT / 100,
    storeMemoryLimit: e.TAXATLAS_STORE_MEMORY_LIMIT,
    storeInit: e.TAXATLAS_STORE_INIT,
    storeRetryMaxMs: e.TAXATLAS_STORE_RETRY_MAX_MS,
    storeCheckMs: e.TAXATLAS_STORE_CHECK_MS,
    tiers: resolveTiers(parseTiers(e.TAXATLAS_TIERS)),
    usageFlushMs: e.TAXATLAS_USAGE_FLUSH_MS,
    usageSpillFile: e.TAXATLAS_USAGE_SPILL_FILE ? path.resolve(e.TAXATLAS_USAGE_SPILL_FILE) : store.kind === 'duckdb' ? spillPathOf(store.file) : null,
    snapshotPollMs: e.TAXATLAS_SNAPSHOT_POLL_MS,
    snapshotRereportMs: e.TAXATLAS_SNAPSHOT_REREPORT_MS,
    jsonBodyLimit: e.TAXATLAS_JSON_BODY_LIMIT,
    shutdownTimeoutMs: e.TAXATLAS_SHUTDOWN_TIMEOUT_MS,
    maxConnectionsPerClient: e.TAXATLAS_MAX_CONNECTIONS_PER_CLIENT,
    replyCacheBytes: Math.round(e.TAXATLAS_REPLY_CACHE_MB * 1024 * 1024),
    requestTimeoutMs: e.TAXATLAS_REQUEST_TIMEOUT_MS,
    authFailures: {
      perSecond: e.TAXATLAS_AUTH_FAILURE_RATE,
      burst: e.TAXATLAS_AUTH_FAILURE_BURST,
      maxAddresses: e.TAXATLAS_AUTH_FAILURE_ADDRESSES,
      addressHeader: e.TAXATLAS_CLIENT_ADDRESS_HEADER?.toLowerCase() ?? null,
    },
    portability: portabilitySettingsOf(e),
    geocoder: readGeocoderSettings(env),
    cors: parseCors(e.TAXATLAS_CORS_ORIGINS),
    consoleDir: e.TAXATLAS_CONSOLE_DIR.trim() === '' ? null : path.resolve(e.TAXATLAS_CONSOLE_DIR),
    refresh: refreshSettingsOf(e),
    webhooks: webhookSettingsOf(e),
    env,
  }
}

function parseCors(text: string): CorsPolicy {
  const parsed = parseCorsOrigins(text)
  if (!parsed.ok) throw settingsError(parsed.problems.map((message) => ({ path: ['TAXATLAS_CORS_ORIGINS'], message })))
  return parsed.policy
}

function parseTiers(text: string | undefined) {
  if (!text) return {}
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw settingsError([{ path: ['TAXATLAS_TIERS'], message: 'not valid JSON' }])
  }
  const parsed = TiersOverride.safeParse(json)
  if (!parsed.success) {
    throw settingsError(parsed.error.issues.map((i) => ({ ...i, path: ['TAXATLAS_TIERS', ...i.path] })))
  }
  return parsed.data
}
