// Webhook subscriptions: an account registers HTTPS endpoints (POST /v1/webhooks, with a secret it
// gives or one generated); after each newly served snapshot, taxatlas POSTs each endpoint the new
// changes in the account's states, signed (server/webhooks/). Listed, rotated or re-enabled
// (PATCH), removed (DELETE), and each delivery's record listed with its attempts.
import { randomBytes } from 'node:crypto'
import * as z from 'zod'
import { HttpError, ValidationErrorBody } from '../base/errors.ts'
import { defineRoute, type Route, type RouteSettings } from '../dispatch/route.ts'
import { validationError } from '../http/validation.ts'
import { DELIVERY_STATUSES, type DeliveryRecord, type WebhookEndpoint } from '../store/webhooks.ts'
import { checkWebhookUrl } from '../webhooks/webhook-url.ts'

/** Endpoints one account may register. */
export const MAX_WEBHOOKS_PER_ACCOUNT = 10
const DEFAULT_DELIVERIES = 50
const MAX_DELIVERIES = 500

const SECRET_DESCRIPTION = 'the key of the HMAC-SHA256 signature in Taxatlas-Signature (16 to 256 characters)'
const Secret = z.string().min(16).max(256).describe(SECRET_DESCRIPTION)

export const WebhookView = z
  .object({
    id: z.string(),
    url: z.string(),
    status: z.enum(['enabled', 'disabled']),
    created_at: z.string(),
    failing_since: z.string().nullable().describe('the first failed attempt since the last delivered one; null while deliveries succeed'),
    disabled_at: z.string().nullable(),
    disabled_reason: z.string().nullable().describe('why taxatlas stopped sending (every attempt failed for the set period)'),
  })
  .meta({ id: 'Webhook' })

export const CreatedWebhook = WebhookView.extend({ secret: z.string().describe('the signing secret: shown only here, in this answer') }).meta({ id: 'CreatedWebhook' })

export const DeliveryView = z
  .object({
    id: z.string().describe('the delivery id, sent as Taxatlas-Delivery and as the body\'s id on every attempt'),
    snapshot: z.string().describe('the snapshot whose new changes it carries'),
    status: z.enum(DELIVERY_STATUSES).describe('pending (being tried), delivered (an attempt was answered 2xx; never sent again), failed (the endpoint was disabled before it was delivered)'),
    change_count: z.number().int(),
    attempts: z.number().int(),
    created_at: z.string(),
    last_attempt_at: z.string().nullable(),
    last_status: z.number().int().nullable().describe('the HTTP status of the last attempt; null when none came (timeout, refused connection)'),
    last_error: z.string().nullable(),
    next_attempt_at: z.string().nullable().describe('when it is tried again; null once delivered or failed'),
    delivered_at: z.string().nullable(),
  })
  .meta({ id: 'WebhookDelivery' })

export const WebhookInput = z.object({ url: z.string().describe('https URL on a public address'), secret: Secret.optional().describe(`${SECRET_DESCRIPTION}; generated when omitted`) }).meta({ id: 'WebhookInput' })
export const WebhookChanges = z
  .object({
    url: z.string().optional(),
    secret: Secret.optional().describe('a new secret: every attempt from now on, of pending deliveries too, is signed with it'),
    enabled: z.literal(true).optional().describe('true: enable a disabled endpoint again (deliveries that failed are not sent again; GET /v1/changes?since lists what was missed)'),
  })
  .meta({ id: 'WebhookChanges' })
const IdParam = z.object({ id: z.string().min(1).max(64) })

export const webhookView = (e: WebhookEndpoint): z.infer<typeof WebhookView> => ({
  id: e.id,
  url: e.url,
  status: e.disabledAt ? 'disabled' : 'enabled',
  created_at: e.createdAt,
  failing_since: e.failingSince,
  disabled_at: e.disabledAt,
  disabled_reason: e.disabledReason,
})

const deliveryView = (d: DeliveryRecord): z.infer<typeof DeliveryView> => ({
  id: d.id,
  snapshot: d.snapshot,
  status: d.status,
  change_count: d.changeCount,
  attempts: d.attempts,
  created_at: d.createdAt,
  last_attempt_at: d.lastAttemptAt,
  last_status: d.lastStatus,
  last_error: d.lastError,
  next_attempt_at: d.nextAttemptAt,
  delivered_at: d.deliveredAt,
})

const notFound = (id: string) => new HttpError('NOT_FOUND', `No webhook ${id} on this account.`)
const policyOf = (settings: RouteSettings) => settings.webhooks ?? { allowLoopback: false, allowPrivate: false }

async function checkedUrl(url: string, settings: RouteSettings): Promise<string> {
  const check = await checkWebhookUrl(url, policyOf(settings))
  if (!check.ok) throw validationError([{ loc: ['body', 'url'], msg: `the webhook URL is refused: ${check.reason}`, type: 'value_error', input: url }])
  return check.url.href
}

const common = { tags: ['webhooks'], auth: 'key' as const }
const invalid = { 422: { description: 'A URL that is not https, points to a loopback or private address, or cannot be resolved; a secret of the wrong length.', schema: ValidationErrorBody } }

const create = defineRoute({
  ...common,
  method: 'POST',
  path: '/v1/webhooks',
  operationId: 'createWebhook',
  summary: 'Register a webhook endpoint for announced rate changes',
  description: [
    'After each newly served snapshot, the endpoint is sent a POST of the changes first seen in it, in the account\'s nexus states (every state without a list): the body is a WebhookRateChanges.',
    'Each request carries Taxatlas-Delivery (the delivery id, the same on every attempt) and Taxatlas-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed by the secret>.',
    'A 2xx answer delivers it; anything else is retried with a doubling wait; an endpoint whose attempts all fail for the set period is disabled, and GET /v1/changes says so.',
    `At most ${MAX_WEBHOOKS_PER_ACCOUNT} endpoints per account.`,
  ].join(' '),
  body: WebhookInput,
  responses: { 201: { description: 'The endpoint, with its secret (shown only now).', schema: CreatedWebhook }, ...invalid },
}).handle(async ({ body, caller, store, settings, now }) => {
  const url = await checkedUrl(body.url, settings)
  const { webhooks } = store
  if ((await webhooks.list(caller.account.id)).length >= MAX_WEBHOOKS_PER_ACCOUNT) {
    throw validationError([{ loc: ['body', 'url'], msg: `the account has ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks already, the most it may have; delete one first`, type: 'value_error', input: body.url }])
  }
  const endpoint: WebhookEndpoint = {
    id: `wh_${randomBytes(12).toString('base64url')}`,
    accountId: caller.account.id,
    url,
    secret: body.secret ?? `whsec_${randomBytes(32).toString('base64url')}`,
    createdAt: new Date(now).toISOString(),
    failingSince: null,
    disabledAt: null,
    disabledReason: null,
  }
  await webhooks.insert(endpoint)
  return { status: 201, body: { ...webhookView(endpoint), secret: endpoint.secret } }
})

const list = defineRoute({
  ...common,
  method: 'GET',
  path: '/v1/webhooks',
  operationId: 'listWebhooks',
  summary: "The account's webhook endpoints",
  responses: { 200: { description: 'Oldest first; secrets are never listed.', schema: z.object({ webhooks: z.array(WebhookView) }).meta({ id: 'WebhookList' }) } },
}).handle(async ({ caller, store }) => ({ status: 200, body: { webhooks: (await store.webhooks.list(caller.account.id)).map(webhookView) } }))

const update = defineRoute({
  ...common,
  method: 'PATCH',
  path: '/v1/webhooks/:id',
  operationId: 'updateWebhook',
  summary: 'Change a webhook endpoint: its URL, its secret (rotation), or enable it again',
  params: IdParam,
  body: WebhookChanges,
  responses: { 200: { description: 'The endpoint as stored.', schema: WebhookView }, ...invalid },
}).handle(async ({ params, body, caller, store, settings }) => {
  const url = body.url === undefined ? undefined : await checkedUrl(body.url, settings)
  const changed = await store.webhooks.update(caller.account.id, params.id, { url, secret: body.secret, enabled: body.enabled })
  if (!changed) throw notFound(params.id)
  return { status: 200, body: webhookView(changed) }
})

const remove = defineRoute({
  ...common,
  method: 'DELETE',
  path: '/v1/webhooks/:id',
  operationId: 'deleteWebhook',
  summary: 'Remove a webhook endpoint and its delivery records',
  params: IdParam,
  responses: { 204: { description: 'Removed; nothing more is sent to it.' } },
}).handle(async ({ params, caller, store }) => {
  if (!(await store.webhooks.remove(caller.account.id, params.id))) throw notFound(params.id)
  return { status: 204, body: undefined }
})

const deliveries = defineRoute({
  ...common,
  method: 'GET',
  path: '/v1/webhooks/:id/deliveries',
  operationId: 'listWebhookDeliveries',
  summary: "A webhook endpoint's deliveries: delivered, pending (with the next attempt) or failed",
  params: IdParam,
  query: z.object({ limit: z.string().optional().describe(`how many, newest first: 1 to ${MAX_DELIVERIES} (default ${DEFAULT_DELIVERIES})`) }),
  responses: { 200: { description: 'Newest first.', schema: z.object({ deliveries: z.array(DeliveryView) }).meta({ id: 'WebhookDeliveries' }) }, 422: { description: 'A limit out of range.', schema: ValidationErrorBody } },
}).handle(async ({ params, query, caller, store }) => {
  let limit = DEFAULT_DELIVERIES
  if (query.limit !== undefined) {
    limit = /^\d{1,4}$/.test(query.limit) ? Number(query.limit) : NaN
    if (!(limit >= 1 && limit <= MAX_DELIVERIES)) throw validationError([{ loc: ['query', 'limit'], msg: `limit must be a whole number from 1 to ${MAX_DELIVERIES}`, type: 'value_error', input: query.limit }])
  }
  const { webhooks } = store
  if (!(await webhooks.list(caller.account.id)).some((e) => e.id === params.id)) throw notFound(params.id)
  return { status: 200, body: { deliveries: (await webhooks.deliveries(caller.account.id, params.id, limit)).map(deliveryView) } }
})

export const WEBHOOK_ROUTES: Route[] = [create, list, update, remove, deliveries]
