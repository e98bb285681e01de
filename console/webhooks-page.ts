// The webhooks page (/webhooks): for the key typed on the page or kept by this tab
// (session-key.ts: listed at once then), the account's endpoints (GET /v1/webhooks), adding one
// (POST, its signing secret shown once), a test event (POST …/pings) and its outcome, changing its
// URL, giving it a new secret or enabling it again (PATCH), deleting it (DELETE), an endpoint's
// recent deliveries (GET …/deliveries), one delivery's attempts (GET …/deliveries/{id}) and sending
// one again (POST …/deliveries/{id}/attempts).
import type { Webhook, WebhookDeliveryDetail } from '../client/index.ts'
import { consoleClient } from './console-client.ts'
import { byId, h } from './dom.ts'
import { when } from './freshness-status.ts'
import { problemView } from './problem-view.ts'
import { sessionKey } from './session-key.ts'
import { attemptsTable, deliveriesTable, endpointsTable, outcomeText, type DeliveryAction, type WebhookAction } from './webhooks-view.ts'

const status = byId('webhooks-status')
const endpoints = byId('webhooks-endpoints')
const actionStatus = byId('webhook-action-status')
const secretBox = byId('webhook-secret')
const deliveriesSection = byId('webhook-deliveries')
const attemptsSection = byId('webhook-attempts')
const editForm = byId<HTMLFormElement>('webhook-edit')
const input = (id: string) => byId<HTMLInputElement>(id)
const key = sessionKey()

/**
 * How often, and how long, the page asks for the outcome of a delivery sent once: the server sends
 * it at once and gives up on an answer after its attempt timeout (10 s by default).
 */
const OUTCOME_CHECK_MS = 500
const OUTCOME_CHECKS = 40

let listed: Webhook[] = []
/** the endpoint whose deliveries are shown */
let deliveriesOf: string | null = null

const client = () => consoleClient(key.value()).client

/** A secret for a rotation, made in this page: 32 random bytes as base64url, as the server makes them. */
function newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return `whsec_${btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`
}

function showSecret(webhook: Pick<Webhook, 'url'>, secret: string, what: string, overlapUntil: string | null = null): void {
  secretBox.replaceChildren(h('p', {}, `${what} ${webhook.url}. Its signing secret is shown only now: copy it to your receiver.`), h('p', {}, h('code', { 'data-field': 'secret' }, secret)))
  if (overlapUntil) {
    secretBox.append(h('p', { 'data-field': 'overlap' }, `The previous secret keeps signing beside it (a second v1= in Taxatlas-Signature) until ${when(overlapUntil)}: a receiver holding either passes meanwhile.`))
  }
  secretBox.hidden = false
}

/** Runs one action of the page, showing its failure (the server's envelope) under the endpoints. */
async function act(action: () => Promise<void>): Promise<void> {
  actionStatus.replaceChildren()
  secretBox.hidden = true
  try {
    await action()
  } catch (error) {
    actionStatus.replaceChildren(problemView(error))
  }
}

async function showDeliveries(id: string): Promise<void> {
  const webhook = listed.find((w) => w.id === id)
  const { deliveries } = await client().webhookDeliveries(id, { limit: 20 })
  if (deliveriesOf !== id) attemptsSection.hidden = true
  deliveriesOf = id
  byId('deliveries-title').replaceChildren('Recent deliveries to ', h('span', { class: 'url' }, webhook?.url ?? id))
  byId('deliveries-list').replaceChildren(deliveriesTable(deliveries))
  deliveriesSection.hidden = false
}

function showAttempts(delivery: WebhookDeliveryDetail): void {
  byId('attempts-title').replaceChildren('Attempts of ', h('code', {}, delivery.id))
  byId('attempts-list').replaceChildren(attemptsTable(delivery))
  attemptsSection.hidden = false
}

async function load(): Promise<void> {
  listed = (await client().webhooks()).webhooks
  byId('webhooks-list').replaceChildren(endpointsTable(listed))
  endpoints.hidden = false
  status.replaceChildren(h('span', { 'data-field': 'summary' }, `${listed.length} ${listed.length === 1 ? 'endpoint' : 'endpoints'}.`))
  if (deliveriesOf && listed.some((w) => w.id === deliveriesOf)) await showDeliveries(deliveriesOf)
  else deliveriesSection.hidden = true
}

/** The delivery once its one attempt has an outcome (or the page stopped asking). */
async function outcomeOf(webhookId: string, deliveryId: string): Promise<WebhookDeliveryDetail> {
  let detail = await client().webhookDelivery(webhookId, deliveryId)
  for (let check = 1; check < OUTCOME_CHECKS && detail.status === 'pending'; check++) {
    await new Promise((resolve) => setTimeout(resolve, OUTCOME_CHECK_MS))
    detail = await client().webhookDelivery(webhookId, deliveryId)
  }
  return detail
}

/** Sends a delivery once (`send`), says so, then shows its outcome, the endpoint's deliveries and the attempt. */
async function sendOnce(webhookId: string, what: string, send: () => Promise<{ id: string }>): Promise<void> {
  const url = listed.find((w) => w.id === webhookId)?.url ?? webhookId
  const sent = await send()
  const line = h('p', { 'data-field': 'sent' }, `${what} sent to ${url} (delivery ${sent.id}): waiting for its answer…`)
  actionStatus.replaceChildren(line)
  const detail = await outcomeOf(webhookId, sent.id)
  line.replaceChildren(`${what} to ${url} (delivery ${sent.id}): `, h('strong', { 'data-field': 'outcome', class: `delivery-${detail.status}` }, outcomeText(detail)))
  await showDeliveries(webhookId)
  showAttempts(detail)
}

async function showKeyed(): Promise<void> {
  status.replaceChildren('Loading…')
  actionStatus.replaceChildren()
  secretBox.hidden = true
  try {
    await load()
    key.settle()
  } catch (error) {
    key.settle(error)
    endpoints.hidden = true
    deliveriesSection.hidden = true
    status.replaceChildren(problemView(error))
  }
}

byId<HTMLFormElement>('key-form').addEventListener('submit', (event) => {
  event.preventDefault()
  void showKeyed()
})

byId<HTMLFormElement>('webhook-create').addEventListener('submit', (event) => {
  event.preventDefault()
  void act(async () => {
    const secret = input('webhook-secret-input').value.trim() || undefined
    const created = await client().createWebhook({ url: input('webhook-url').value.trim(), secret })
    input('webhook-url').value = ''
    input('webhook-secret-input').value = ''
    await load()
    showSecret(created, created.secret, 'Added')
  })
})

editForm.addEventListener('submit', (event) => {
  event.preventDefault()
  void act(async () => {
    await client().updateWebhook(editForm.dataset.id!, { url: input('webhook-edit-url').value.trim() })
    editForm.hidden = true
    await load()
  })
})
byId('webhook-edit-cancel').addEventListener('click', () => {
  editForm.hidden = true
})

const ACTIONS: Record<WebhookAction, (webhook: Webhook) => Promise<void>> = {
  deliveries: (webhook) => showDeliveries(webhook.id),
  ping: (webhook) => sendOnce(webhook.id, 'Test event', () => client().pingWebhook(webhook.id)),
  edit: async (webhook) => {
    editForm.dataset.id = webhook.id
    byId('webhook-edit-id').replaceChildren(webhook.id)
    input('webhook-edit-url').value = webhook.url
    editForm.hidden = false
    input('webhook-edit-url').focus()
  },
  rotate: async (webhook) => {
    const secret = newSecret()
    const rotated = await client().updateWebhook(webhook.id, { secret })
    await load()
    showSecret(webhook, secret, 'New secret for', rotated.previous_secret_expires_at)
  },
  enable: async (webhook) => {
    await client().updateWebhook(webhook.id, { enabled: true })
    await load()
  },
  delete: async (webhook) => {
    if (!confirm(`Delete the endpoint ${webhook.url} and its delivery records? Nothing more is sent to it.`)) return
    await client().deleteWebhook(webhook.id)
    await load()
  },
}

const DELIVERY_ACTIONS: Record<DeliveryAction, (webhookId: string, deliveryId: string) => Promise<void>> = {
  attempts: async (webhookId, deliveryId) => showAttempts(await client().webhookDelivery(webhookId, deliveryId)),
  redeliver: (webhookId, deliveryId) => sendOnce(webhookId, `Delivery ${deliveryId} sent again`, () => client().redeliverWebhookDelivery(webhookId, deliveryId)),
}

byId('webhooks-list').addEventListener('click', (event) => {
  const target = (event.target as Element).closest<HTMLButtonElement>('button[data-action]')
  const webhook = listed.find((w) => w.id === target?.dataset.id)
  if (!target || !webhook) return
  void act(() => ACTIONS[target.dataset.action as WebhookAction](webhook))
})

byId('deliveries-list').addEventListener('click', (event) => {
  const target = (event.target as Element).closest<HTMLButtonElement>('button[data-delivery-action]')
  if (!target || !deliveriesOf || !target.dataset.id) return
  const webhookId = deliveriesOf
  void act(() => DELIVERY_ACTIONS[target.dataset.deliveryAction as DeliveryAction](webhookId, target.dataset.id!))
})

if (key.remembered) void showKeyed()
