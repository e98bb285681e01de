// The webhooks page (/webhooks): for the key typed on the page (read again for each call, held
// nowhere else), the account's endpoints (GET /v1/webhooks), adding one (POST, its signing secret
// shown once), changing its URL, giving it a new secret or enabling it again (PATCH), deleting it
// (DELETE), and an endpoint's recent deliveries (GET /v1/webhooks/{id}/deliveries).
import type { Webhook } from '../client/index.ts'
import { consoleClient } from './console-client.ts'
import { byId, h } from './dom.ts'
import { problemView } from './problem-view.ts'
import { deliveriesTable, endpointsTable, type WebhookAction } from './webhooks-view.ts'

const status = byId('webhooks-status')
const endpoints = byId('webhooks-endpoints')
const actionStatus = byId('webhook-action-status')
const secretBox = byId('webhook-secret')
const deliveriesSection = byId('webhook-deliveries')
const editForm = byId<HTMLFormElement>('webhook-edit')
const input = (id: string) => byId<HTMLInputElement>(id)

let listed: Webhook[] = []
/** the endpoint whose deliveries are shown */
let deliveriesOf: string | null = null

const client = () => consoleClient(input('api-key').value.trim() || undefined).client

/** A secret for a rotation, made in this page: 32 random bytes as base64url, as the server makes them. */
function newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return `whsec_${btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`
}

function showSecret(webhook: Pick<Webhook, 'url'>, secret: string, what: string): void {
  secretBox.replaceChildren(
    h('p', {}, `${what} ${webhook.url}. Its signing secret is shown only now: copy it to your receiver.`),
    h('p', {}, h('code', { 'data-field': 'secret' }, secret)),
  )
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
  deliveriesOf = id
  byId('deliveries-title').replaceChildren('Recent deliveries to ', h('span', { class: 'url' }, webhook?.url ?? id))
  byId('deliveries-list').replaceChildren(deliveriesTable(deliveries))
  deliveriesSection.hidden = false
}

async function load(): Promise<void> {
  listed = (await client().webhooks()).webhooks
  byId('webhooks-list').replaceChildren(endpointsTable(listed))
  endpoints.hidden = false
  status.replaceChildren(h('span', { 'data-field': 'summary' }, `${listed.length} ${listed.length === 1 ? 'endpoint' : 'endpoints'}.`))
  if (deliveriesOf && listed.some((w) => w.id === deliveriesOf)) await showDeliveries(deliveriesOf)
  else deliveriesSection.hidden = true
}

byId<HTMLFormElement>('key-form').addEventListener('submit', async (event) => {
  event.preventDefault()
  status.replaceChildren('Loading…')
  actionStatus.replaceChildren()
  secretBox.hidden = true
  try {
    await load()
  } catch (error) {
    endpoints.hidden = true
    deliveriesSection.hidden = true
    status.replaceChildren(problemView(error))
  }
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
  edit: async (webhook) => {
    editForm.dataset.id = webhook.id
    byId('webhook-edit-id').replaceChildren(webhook.id)
    input('webhook-edit-url').value = webhook.url
    editForm.hidden = false
    input('webhook-edit-url').focus()
  },
  rotate: async (webhook) => {
    const secret = newSecret()
    await client().updateWebhook(webhook.id, { secret })
    await load()
    showSecret(webhook, secret, 'New secret for')
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

byId('webhooks-list').addEventListener('click', (event) => {
  const target = (event.target as Element).closest<HTMLButtonElement>('button[data-action]')
  const webhook = listed.find((w) => w.id === target?.dataset.id)
  if (!target || !webhook) return
  void act(() => ACTIONS[target.dataset.action as WebhookAction](webhook))
})
