// Deliveries an account asks for, as GitHub offers them: a ping (a signed test event, to see a
// receiver work without waiting for a refresh) and a redelivery (a delivery sent again: a new
// delivery id, the same event and body). Each is sent once, at once, and never retried
// (store/webhooks.ts: on_request).
import * as z from 'zod'
import type { DeliveryDetail, RequestedDelivery, WebhookEndpoint } from '../store/webhooks.ts'
import { newDeliveryId, newEventId } from './announcement.ts'

export const PING_EVENT_TYPE = 'ping'

export const WebhookPing = z
  .object({
    id: z.string().describe('the delivery id (Taxatlas-Delivery)'),
    event_id: z.string().describe("the ping's event id"),
    type: z.literal(PING_EVENT_TYPE),
    created_at: z.string().describe('when the ping was asked for, ISO 8601 UTC'),
    webhook_id: z.string().describe('the endpoint pinged'),
    url: z.string().describe("the endpoint's URL as registered"),
    snapshot: z.string().describe('the snapshot in service when the ping was asked for'),
    message: z.string(),
  })
  .meta({ id: 'WebhookPing' })
export type WebhookPing = z.infer<typeof WebhookPing>

export function pingDelivery(endpoint: WebhookEndpoint, snapshot: string, at: string): RequestedDelivery {
  const id = newDeliveryId()
  const eventId = newEventId()
  const body: WebhookPing = {
    id,
    event_id: eventId,
    type: PING_EVENT_TYPE,
    created_at: at,
    webhook_id: endpoint.id,
    url: endpoint.url,
    snapshot,
    message: 'A test delivery from taxatlas: verify its Taxatlas-Signature and answer 2xx. It carries no rate change.',
  }
  return { id, eventId, eventType: PING_EVENT_TYPE, webhookId: endpoint.id, accountId: endpoint.accountId, changeCount: 0, body: JSON.stringify(body), snapshot, at, redeliveryOf: null }
}

/** `original` sent again: its body with a new delivery id (and the event id, which a body made before events had ids lacks). */
export function redelivery(original: DeliveryDetail, at: string): RequestedDelivery {
  const id = newDeliveryId()
  // The body's numbers are JSON.stringify's own text of doubles, which JSON.parse reads back exactly.
  const { id: _id, event_id: _eventId, ...rest } = JSON.parse(original.body) as Record<string, unknown>
  const body = JSON.stringify({ id, event_id: original.eventId, ...rest })
  return {
    id,
    eventId: original.eventId,
    eventType: original.eventType,
    webhookId: original.webhookId,
    accountId: original.accountId,
    changeCount: original.changeCount,
    body,
    snapshot: original.snapshot,
    at,
    redeliveryOf: original.id,
  }
}
