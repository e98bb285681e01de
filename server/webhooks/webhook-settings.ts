// Settings of webhook subscriptions, from the environment, validated once at start-up.
import * as z from 'zod'

const flag = z
  .enum(['0', '1', 'false', 'true'])
  .default('0')
  .transform((value) => value === '1' || value === 'true')

const DAY_MS = 86_400_000
export const HOUR_MS = 3_600_000
/** The longest a replaced secret may keep signing: a week, as the common payment-provider webhooks allow. */
export const MAX_SECRET_OVERLAP_HOURS = 168
export const DEFAULT_SECRET_OVERLAP_HOURS = 24

export const WebhookEnv = z.object({
  TAXATLAS_WEBHOOK_ALLOW_LOOPBACK: flag.describe('1: a webhook URL may name a loopback address (127.0.0.0/8, ::1, localhost), over http or https: for tests and receivers on the same machine'),
  TAXATLAS_WEBHOOK_ALLOW_PRIVATE: flag.describe('1: a webhook URL may point into private, link-local or shared address ranges (10/8, 172.16/12, 192.168/16, 169.254/16, 100.64/10, fc00::/7, fe80::/10); https is still required'),
  TAXATLAS_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000).describe('how long one delivery attempt may take, connection to response, before it counts as failed'),
  TAXATLAS_WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().positive().default(60_000).describe('wait after the first failed attempt; each later failure doubles it'),
  TAXATLAS_WEBHOOK_RETRY_MAX_MS: z.coerce.number().int().positive().default(3_600_000).describe('longest wait between two attempts of a delivery'),
  TAXATLAS_WEBHOOK_DISABLE_AFTER_DAYS: z.coerce.number().positive().default(3).describe('an endpoint whose attempts have all failed for this many days (fractions allowed) is disabled; its account is told in /v1/changes'),
  TAXATLAS_WEBHOOK_POLL_MS: z.coerce.number().int().positive().default(1_000).describe('how often a server looks for a newly served snapshot to announce and for deliveries due'),
  TAXATLAS_WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16).describe('deliveries one server sends at once'),
  TAXATLAS_WEBHOOK_SECRET_OVERLAP_HOURS: z.coerce
    .number()
    .min(0)
    .max(MAX_SECRET_OVERLAP_HOURS)
    .default(DEFAULT_SECRET_OVERLAP_HOURS)
    .describe(`after a secret is rotated, how long the replaced one keeps signing beside it (a second v1=), so receivers can be redeployed: 0 to ${MAX_SECRET_OVERLAP_HOURS} hours; a rotation may ask for another overlap`),
})

export type WebhookSettings = {
  allowLoopback: boolean
  allowPrivate: boolean
  timeoutMs: number
  retryBaseMs: number
  retryMaxMs: number
  disableAfterMs: number
  pollMs: number
  concurrency: number
  /** how long a replaced secret keeps signing when a rotation does not say */
  secretOverlapMs: number
}

export const webhookSettingsOf = (env: z.output<typeof WebhookEnv>): WebhookSettings => ({
  allowLoopback: env.TAXATLAS_WEBHOOK_ALLOW_LOOPBACK,
  allowPrivate: env.TAXATLAS_WEBHOOK_ALLOW_PRIVATE,
  timeoutMs: env.TAXATLAS_WEBHOOK_TIMEOUT_MS,
  retryBaseMs: env.TAXATLAS_WEBHOOK_RETRY_BASE_MS,
  retryMaxMs: env.TAXATLAS_WEBHOOK_RETRY_MAX_MS,
  disableAfterMs: Math.round(env.TAXATLAS_WEBHOOK_DISABLE_AFTER_DAYS * DAY_MS),
  pollMs: env.TAXATLAS_WEBHOOK_POLL_MS,
  concurrency: env.TAXATLAS_WEBHOOK_CONCURRENCY,
  secretOverlapMs: Math.round(env.TAXATLAS_WEBHOOK_SECRET_OVERLAP_HOURS * HOUR_MS),
})

/** The wait before the next attempt after `attempts` failed ones: base, doubled each time, capped. */
export const retryDelayMs = (settings: Pick<WebhookSettings, 'retryBaseMs' | 'retryMaxMs'>, attempts: number): number =>
  Math.min(settings.retryMaxMs, settings.retryBaseMs * 2 ** Math.min(Math.max(attempts - 1, 0), 30))
