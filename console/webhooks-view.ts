// The webhooks page's tables: the account's endpoints, each with its state and the buttons acting
// on it, and one endpoint's recent deliveries with their attempts.
import type { Webhook, WebhookDelivery } from '../client/index.ts'
import { h, table } from './dom.ts'
import { when } from './freshness-status.ts'

export type WebhookAction = 'deliveries' | 'edit' | 'rotate' | 'enable' | 'delete'

function stateOf(webhook: Webhook): HTMLElement {
  if (webhook.status === 'disabled') {
    return h('span', { 'data-field': 'status' }, h('strong', {}, 'disabled'), ` ${when(webhook.disabled_at)}`, webhook.disabled_reason ? h('small', { class: 'muted' }, ` ${webhook.disabled_reason}`) : null)
  }
  return h('span', { 'data-field': 'status' }, 'enabled', webhook.failing_since ? h('small', { class: 'muted' }, ` failing since ${when(webhook.failing_since)}`) : null)
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
      button('deliveries', webhook.id, 'Deliveries'),
      button('edit', webhook.id, 'Change URL'),
      button('rotate', webhook.id, 'New secret'),
      webhook.status === 'disabled' ? button('enable', webhook.id, 'Enable again') : null,
      button('delete', webhook.id, 'Delete'),
    ),
  ])
  const rowData = webhooks.map((webhook) => ({ id: webhook.id, status: webhook.status }))
  return h('div', { class: 'table-scroll' }, table('Your endpoints, oldest first', ['Endpoint', 'State', 'Actions'], rows, { 'data-part': 'webhooks' }, rowData))
}

const lastAnswer = (delivery: WebhookDelivery) =>
  delivery.last_status !== null ? `HTTP ${delivery.last_status}` : delivery.last_error ?? (delivery.attempts ? 'no answer' : '—')

export function deliveriesTable(deliveries: readonly WebhookDelivery[]): HTMLElement {
  if (!deliveries.length) return h('p', { 'data-field': 'none' }, 'Nothing sent yet: a delivery is made when a refresh brings new changes in your states.')
  const rows = deliveries.map((delivery) => [
    h('span', { 'data-field': 'status', class: `delivery-${delivery.status}` }, delivery.status),
    h('span', { 'data-field': 'changes' }, delivery.change_count.toLocaleString('en-US')),
    h('span', { 'data-field': 'attempts' }, delivery.attempts),
    h('span', { 'data-field': 'last' }, when(delivery.last_attempt_at), h('br'), h('small', { class: 'muted' }, lastAnswer(delivery))),
    h('span', { 'data-field': 'next' }, delivery.status === 'delivered' ? `delivered ${when(delivery.delivered_at)}` : when(delivery.next_attempt_at)),
    h('span', { class: 'url' }, h('code', {}, delivery.id), h('br'), h('small', { class: 'muted' }, `snapshot ${delivery.snapshot}`)),
  ])
  const rowData = deliveries.map((delivery) => ({ id: delivery.id }))
  return h('div', { class: 'table-scroll' }, table('Newest first', ['Status', 'Changes', 'Attempts', 'Last attempt', 'Next attempt', 'Delivery'], rows, { 'data-part': 'deliveries' }, rowData))
}
