// The webhooks page's tables: the account's endpoints, each with its state and the buttons acting
// on it; one endpoint's recent deliveries, each with its event and the buttons to see its attempts
// or send it again; and one delivery's attempts.
import type { Webhook, WebhookDelivery, WebhookDeliveryDetail } from '../client/index.ts'
import { h, table } from './dom.ts'
import { when } from './freshness-status.ts'

export type WebhookAction = 'deliveries' | 'ping' | 'edit' | 'rotate' | 'enable' | 'delete'
export type DeliveryAction = 'attempts' | 'redeliver'

function stateOf(webhook: Webhook): HTMLElement {
  const overlap = webhook.previous_secret_expires_at ? h('small', { class: 'muted', 'data-field': 'overlap' }, ` the previous secret signs too until ${when(webhook.previous_secret_expires_at)}`) : null
  if (webhook.status === 'disabled') {
    return h('span', { 'data-field': 'status' }, h('strong', {}, 'disabled'), ` ${when(webhook.disabled_at)}`, webhook.disabled_reason ? h('small', { class: 'muted' }, ` ${webhook.disabled_reason}`) : null, overlap)
  }
  return h('span', { 'data-field': 'status' }, 'enabled', webhook.failing_since ? h('small', { class: 'muted' }, ` failing since ${when(webhook.failing_since)}`) : null, overlap)
}

const button = (action: WebhookAction, id: string, label: string) => h('button', { type: 'button', class: 'plain', 'data-action': action, 'data-id': id }, label)

export function endpointsTable(webhooks: readonly Webhook[]): HTMLElement {
  if (!webhooks.length) return h('p', { 'data-field': 'none' }, 'No endpoint yet: add one below.')
  const rows = webhooks.map((webhook) => [
    h('span', { class: 'url', 'data-field': 'url' }, webhook.url, h('br'), h('small', { class: 'muted' }, `${webhook.id}, added ${when(webhook.created_at)}`)),
    stateOf(webhook),
    h(
      'span',
      { class: 'actions' },
      button('ping', webhook.id, 'Send test'),
      button('deliveries', webhook.id, 'Deliveries'),
      button('edit', webhook.id, 'Change URL'),
      button('rotate', webhook.id, 'New secret'),
      webhook.status === 'disabled' ? button('enable', webhook.id, 'Enable again') : null,
      button('delete', webhook.id, 'Delete'),
    ),
  ])
  const rowData = webhooks.map((webhook) => ({ id: webhook.id, status: webhook.status }))
  return table('Your endpoints, oldest first', ['Endpoint', 'State', 'Actions'], rows, { 'data-part': 'webhooks' }, rowData)
}

/** What the last attempt was answered, or why it was not. */
export const answerOf = (delivery: Pick<WebhookDelivery, 'last_status' | 'last_error' | 'attempts'>) =>
  delivery.last_status !== null ? `HTTP ${delivery.last_status}` : delivery.last_error ?? (delivery.attempts ? 'no answer' : '—')

const EVENT_LABELS: Record<WebhookDelivery['event_type'], string> = { 'rate_changes.announced': 'rate changes', ping: 'test (ping)' }

const deliveryButton = (action: DeliveryAction, id: string, label: string) => h('button', { type: 'button', class: 'plain', 'data-delivery-action': action, 'data-id': id }, label)

export function deliveriesTable(deliveries: readonly WebhookDelivery[]): HTMLElement {
  if (!deliveries.length) return h('p', { 'data-field': 'none' }, 'Nothing sent yet: a delivery is made when a refresh brings new changes in your states, or by "Send test".')
  const rows = deliveries.map((delivery) => [
    h('span', { 'data-field': 'status', class: `delivery-${delivery.status}` }, delivery.status),
    h(
      'span',
      { 'data-field': 'event' },
      EVENT_LABELS[delivery.event_type],
      delivery.event_type === 'rate_changes.announced' ? ` (${delivery.change_count.toLocaleString('en-US')} ${delivery.change_count === 1 ? 'change' : 'changes'})` : null,
      delivery.redelivery_of ? h('small', { class: 'muted' }, ` sent again: ${delivery.redelivery_of}`) : null,
    ),
    h('span', { 'data-field': 'attempts' }, delivery.attempts),
    h('span', { 'data-field': 'last' }, when(delivery.last_attempt_at), h('br'), h('small', { class: 'muted' }, answerOf(delivery))),
    h('span', { 'data-field': 'next' }, delivery.status === 'delivered' ? `delivered ${when(delivery.delivered_at)}` : when(delivery.next_attempt_at)),
    h('span', { class: 'url' }, h('code', {}, delivery.id), h('br'), h('small', { class: 'muted' }, `event ${delivery.event_id}, snapshot ${delivery.snapshot}`)),
    h('span', { class: 'actions' }, deliveryButton('attempts', delivery.id, 'Attempts'), deliveryButton('redeliver', delivery.id, 'Send again')),
  ])
  const rowData = deliveries.map((delivery) => ({ id: delivery.id, event: delivery.event_type }))
  return table('Newest first', ['Status', 'Event', 'Attempts', 'Last attempt', 'Next attempt', 'Delivery', 'Actions'], rows, { 'data-part': 'deliveries' }, rowData)
}

export function attemptsTable(delivery: WebhookDeliveryDetail): HTMLElement {
  if (!delivery.attempt_history.length) return h('p', { 'data-field': 'none' }, 'Not tried yet: it is due now.')
  const rows = delivery.attempt_history.map((attempt) => [
    String(attempt.attempt),
    when(attempt.started_at),
    h('span', { 'data-field': 'answer' }, attempt.status === null ? 'none' : `HTTP ${attempt.status}`),
    attempt.duration_ms === null ? '—' : `${attempt.duration_ms.toLocaleString('en-US')} ms`,
    attempt.error ?? '',
  ])
  return table('Every attempt, oldest first', ['#', 'Started', 'Answer', 'Took', 'Error'], rows, { 'data-part': 'attempts' }, delivery.attempt_history.map((a) => ({ attempt: String(a.attempt) })))
}

/** The outcome of a delivery sent once (a test, a delivery sent again), in words. */
export function outcomeText(delivery: WebhookDeliveryDetail): string {
  const last = delivery.attempt_history.at(-1)
  const took = last?.duration_ms === null || last === undefined ? '' : ` in ${last.duration_ms.toLocaleString('en-US')} ms`
  if (delivery.status === 'delivered') return `delivered: answered HTTP ${delivery.last_status}${took}`
  if (delivery.status === 'failed') return `failed: ${answerOf(delivery)}${took}; it is not tried again`
  return 'not answered yet: its outcome will be under Deliveries'
}
