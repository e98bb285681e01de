// Webhook subscriptions: an account registers HTTPS endpoints (POST /v1/webhooks, with a secret it
// gives or one generated); after each newly served snapshot, taxatlas POSTs each endpoint the new
// changes in the account's states, signed (server/webhooks/). Listed, rotated or re-enabled
// (PATCH, a rotated secret signing beside the new one for an overlap), removed (DELETE); each
// delivery's record listed, and one with every attempt; a ping sent, a delivery sent again.
// Paths and answers as GitHub's webhooks API has them (pings, deliveries/{id}/attempts: 202).
import { randomBytes } from 'node:crypto'
import * as z from 'zod'
import { HttpError, ValidationErrorBody } from '../base/errors.ts'
import { defineRoute, type Route, type RouteSettings } from '../dispatch/route.ts'
import { validationError } from '../http/validation.ts'
import type { StoreParts } from '../store/store.ts'
import { DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES, type AttemptRecord, type DeliveryRecord, type RequestedDelivery, type WebhookEndpoint } from '../store/webhooks.ts'
import { pingDelivery, redelivery } from '../webhooks/requested-delivery.ts'
import { DEFAULT_SECRET_OVERLAP_HOURS, HOUR_MS, MAX_SECRET_OVERLAP_HOURS } from '../webhooks/webhook-settings.ts'
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
    previous_secret_expires_at: z.string().nullable().describe('after a rotation: until when the replaced secret still signs, beside the current one (a second v1= in Taxatlas-Signature); null when only the current one signs'),
  })
  .meta({ id: 'Webhook' })

export const CreatedWebhook = WebhookView.extend({ secret: z.string().describe('the signing secret: shown only here, in this answer') }).meta({ id: 'CreatedWebhook' })

export const DeliveryView = z
  .object({
    id: z.string().describe('the delivery id, sent as Taxatlas-Delivery and as the body\'s id on every attempt'),
    event_id: z.string().describe("the event it carries, the body's event_id: shared by the event's deliveries to each endpoint and by any redelivery"),
    event_type: z.enum(WEBHOOK_EVENT_TYPES).describe('rate_changes.announced, or ping for a test delivery (POST /v1/webhooks/{id}/pings)'),
    redelivery_of: z.string().nullable().describe('the delivery this one sent again (POST …/deliveries/{delivery_id}/attempts); null otherwise'),
    snapshot: z.string().describe('the snapshot whose new changes it carries (for a ping, the one in service when it was asked for)'),
    status: z
      .enum(DELIVERY_STATUSES)
      .describe('pending (being tried), delivered (an attempt was answered 2xx; never sent again), failed (the endpoint was disabled before it was delivered; a ping or redelivery whose one attempt failed)'),
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

export const AttemptView = z
  .object({
    attempt: z.number().int().describe('its number, from 1 (Taxatlas-Attempt)'),
    started_at: z.string(),
    status: z.number().int().nullable().describe('the HTTP status answered; null when none came (timeout, refused connection, an address refused)'),
    duration_ms: z.number().int().nullable().describe('from the start of the attempt to its answer or failure; null for the one attempt known of a delivery made before attempts were kept'),
    error: z.string().nullable().describe('why it failed; null when answered 2xx'),
  })
  .meta({ id: 'WebhookAttempt' })

export const DeliveryDetailView = DeliveryView.extend({ attempt_history: z.array(AttemptView).describe('every attempt, oldest first') }).meta({ id: 'WebhookDeliveryDetail' })

export const WebhookInput = z.object({ url: z.string().describe('https URL on a public address'), secret: Secret.optional().describe(`${SECRET_DESCRIPTION}; generated when omitted`) }).meta({ id: 'WebhookInput' })
export const WebhookChanges = z
  .object({
    url: z.string().optional(),
    secret: Secret.optional().describe(
      'a new secret: every attempt from now on, of pending deliveries too, is signed with it, and with the replaced one (a second v1=) until previous_secret_expires_at',
    ),
    previous_secret_expires_in_hours: z
      .number()
      .min(0)
      .max(MAX_SECRET_OVERLAP_HOURS)
      .optional()
      .describe(`with a secret: how long the replaced secret keeps signing beside it, 0 to ${MAX_SECRET_OVERLAP_HOURS} hours (default: the server's TAXATLAS_WEBHOOK_SECRET_OVERLAP_HOURS, ${DEFAULT_SECRET_OVERLAP_HOURS}); 0 stops it at once (a leaked secret)`),
    enabled: z.literal(true).optional().describe('true: enable a disabled endpoint again (deliveries that failed are not sent again; GET /v1/changes?since lists what was missed)'),
  })
  .meta({ id: 'WebhookChanges' })
const IdParam = z.object({ id: z.string().min(1).max(64) })
const DeliveryParams = IdParam.extend({ delivery_id: z.string().min(1).max(64) })

export const webhookView = (e: WebhookEndpoint, now: string): z.infer<typeof WebhookView> => ({
  id: e.id,
  url: e.url,
  status: e.disabledAt ? 'disabled' : 'enabled',
  created_at: e.createdAt,
  failing_since: e.failingSince,
  disabled_at: e.disabledAt,
  disabled_reason: e.disabledReason,
  previous_secret_expires_at: e.previousSecret !== null && e.previousSecretExpiresAt !== null && e.previousSecretExpiresAt > now ? e.previousSecretExpiresAt : null,
})

const deliveryView = (d: DeliveryRecord): z.infer<typeof DeliveryView> => ({
  id: d.id,
  event_id: d.eventId,
  event_type: d.eventType,
  redelivery_of: d.redeliveryOf,
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

const attemptView = (a: AttemptRecord): z.infer<typeof AttemptView> => ({ attempt: a.attempt, started_at: a.startedAt, status: a.status, duration_ms: a.durationMs, error: a.error })

/** A delivery just asked for, as recorded: due at once, not tried yet. */
const requestedView = (d: RequestedDelivery) =>
  deliveryView({ ...d, status: 'pending', attempts: 0, createdAt: d.at, nextAttemptAt: d.at, lastAttemptAt: null, lastStatus: null, lastError: null, deliveredAt: null, onRequest: true })

const notFound = (id: string) => new HttpError('NOT_FOUND', `No webhook ${id} on this account.`)
const deliveryNotFound = (webhookId: string, id: string) => new HttpError('NOT_FOUND', `No delivery ${id} of webhook ${webhookId} on this account.`)
const policyOf = (settings: RouteSettings) => settings.webhooks ?? { allowLoopback: false, allowPrivate: false, secretOverlapMs: DEFAULT_SECRET_OVERLAP_HOURS * HOUR_MS }

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
    'Each request carries Taxatlas-Delivery (the delivery id, the same on every attempt) and Taxatlas-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed by the secret> (after a rotation, a second v1= for the replaced secret while it still signs).',
    'POST /v1/webhooks/{id}/pings sends a test event to see the receiver work.',
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
    previousSecret: null,
    previousSecretExpiresAt: null,
  }
  await webhooks.insert(endpoint)
  return { status: 201, body: { ...webhookView(endpoint, endpoint.createdAt), secret: endpoint.secret } }
})

const list = defineRoute({
  ...common,
  method: 'GET',
  path: '/v1/webhooks',
  operationId: 'listWebhooks',
  summary: "The account's webhook endpoints",
  responses: { 200: { description: 'Oldest first; secrets are never listed.', schema: z.object({ webhooks: z.array(WebhookView) }).meta({ id: 'WebhookList' }) } },
}).handle(async ({ caller, store, now }) => ({ status: 200, body: { webhooks: (await store.webhooks.list(caller.account.id)).map((e) => webhookView(e, new Date(now).toISOString())) } }))

const update = defineRoute({
  ...common,
  method: 'PATCH',
  path: '/v1/webhooks/:id',
  operationId: 'updateWebhook',
  summary: 'Change a webhook endpoint: its URL, its secret (rotation), or enable it again',
  params: IdParam,
  body: WebhookChanges,
  responses: { 200: { description: 'The endpoint as stored.', schema: WebhookView }, ...invalid },
}).handle(async ({ params, body, caller, store, settings, now }) => {
  if (body.previous_secret_expires_in_hours !== undefined && body.secret === undefined) {
    throw validationError([{ loc: ['body', 'previous_secret_expires_in_hours'], msg: 'only with a new secret: it is how long the secret replaced keeps signing', type: 'value_error', input: body.previous_secret_expires_in_hours }])
  }
  const url = body.url === undefined ? undefined : await checkedUrl(body.url, settings)
  const overlapMs = body.previous_secret_expires_in_hours === undefined ? policyOf(settings).secretOverlapMs : Math.round(body.previous_secret_expires_in_hours * HOUR_MS)
  const previousSecretExpiresAt = overlapMs > 0 ? new Date(now + overlapMs).toISOString() : null
  const changed = await store.webhooks.update(caller.account.id, params.id, { url, secret: body.secret, previousSecretExpiresAt, enabled: body.enabled })
  if (!changed) throw notFound(params.id)
  return { status: 200, body: webhookView(changed, new Date(now).toISOString()) }
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
  await endpointOf(store, caller.account.id, params.id)
  return { status: 200, body: { deliveries: (await webhooks.deliveries(caller.account.id, params.id, limit)).map(deliveryView) } }
})

async function endpointOf(store: StoreParts, accountId: string, id: string): Promise<WebhookEndpoint> {
  const endpoint = (await store.webhooks.list(accountId)).find((e) => e.id === id)
  if (!endpoint) throw notFound(id)
  return endpoint
}

const accepted = (webhookId: string, queued: RequestedDelivery) => ({
  status: 202 as const,
  body: requestedView(queued),
  headers: { Location: `/v1/webhooks/${encodeURIComponent(webhookId)}/deliveries/${encodeURIComponent(queued.id)}` },
})
const acceptedResponse = {
  202: { description: 'Accepted: the delivery, sent at once; GET its Location for the outcome of its one attempt (it is not retried).', schema: DeliveryView, headers: { Location: 'the delivery' } },
}

const delivery = defineRoute({
  ...common,
  method: 'GET',
  path: '/v1/webhooks/:id/deliveries/:delivery_id',
  operationId: 'getWebhookDelivery',
  summary: 'One delivery of a webhook endpoint, with every attempt: when, the HTTP status, how long, why it failed',
  params: DeliveryParams,
  responses: { 200: { description: 'The delivery and its attempts, oldest first.', schema: DeliveryDetailView } },
}).handle(async ({ params, caller, store }) => {
  const detail = await store.webhooks.delivery(caller.account.id, params.id, params.delivery_id)
  if (!detail) throw deliveryNotFound(params.id, params.delivery_id)
  return { status: 200, body: { ...deliveryView(detail), attempt_history: detail.attemptLog.map(attemptView) } }
})

const ping = defineRoute({
  ...common,
  method: 'POST',
  path: '/v1/webhooks/:id/pings',
  operationId: 'pingWebhook',
  summary: 'Send the endpoint a test event (type ping), signed as every delivery is',
  description:
    'A WebhookPing is sent at once, once: no retry, and its outcome does not count toward disabling the endpoint (a disabled endpoint may be pinged, to check a receiver before enabling it again).',
  params: IdParam,
  responses: acceptedResponse,
}).handle(async ({ params, caller, store, snapshot, now }) => {
  const endpoint = await endpointOf(store, caller.account.id, params.id)
  const queued = pingDelivery(endpoint, snapshot.id, new Date(now).toISOString())
  await store.webhooks.request(queued)
  return accepted(endpoint.id, queued)
})

const redeliver = defineRoute({
  ...common,
  method: 'POST',
  path: '/v1/webhooks/:id/deliveries/:delivery_id/attempts',
  operationId: 'redeliverWebhookDelivery',
  summary: 'Send a delivery again: a new delivery of the same event and body',
  description:
    'As GitHub redelivers: a new delivery (its own id in Taxatlas-Delivery and the body, redelivery_of naming this one) of the same event (event_id), sent at once, once, to the endpoint\'s URL now, signed with its secret now. Any delivery may be sent again: delivered, pending or failed.',
  params: DeliveryParams,
  responses: acceptedResponse,
}).handle(async ({ params, caller, store, now }) => {
  const original = await store.webhooks.delivery(caller.account.id, params.id, params.delivery_id)
  if (!original) throw deliveryNotFound(params.id, params.delivery_id)
  const queued = redelivery(original, new Date(now).toISOString())
  await store.webhooks.request(queued)
  return accepted(params.id, queued)
})

export const WEBHOOK_ROUTES: Route[] = [create, list, update, remove, deliveries, delivery, ping, redeliver]
