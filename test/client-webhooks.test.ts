// The typed client's webhook methods and change-feed paging against a real server (port 0, a
// real store, loopback receivers; test/support/webhook-scene.ts): each answer equals the raw JSON
// the server sends for the same call (pings and redeliveries too), and each refusal (422 with its detail, 404, 401) is the
// error class the README names.
import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { AuthenticationError, NotFoundError, TaxatlasClient, ValidationError, type RateChange, type WebhookRateChanges } from '../client/index.ts'
import { rejection } from './support/client-recording.ts'
import { LOOPBACK_ENV, SECRET, webhookScenes, type WebhookScene } from './support/webhook-scene.ts'

const scene = webhookScenes()

const clientOf = (s: WebhookScene, apiKey = s.key) => new TaxatlasClient({ baseUrl: s.server.url, apiKey, maxRetries: 0 })

describe('createWebhook(), webhooks(), updateWebhook(), deleteWebhook()', () => {
  it('register, list, change and remove endpoints as the routes do', async () => {
    const s = await scene()
    const client = clientOf(s)
    const receiver = await s.receiver()

    const created = await client.createWebhook({ url: receiver.url, secret: SECRET })
    expect(created).toMatchObject({ url: receiver.url, status: 'enabled', secret: SECRET, failing_since: null, disabled_at: null })
    // Listed oldest first: the second is made a second later.
    s.clock.advance(1_000)
    const generated = await client.createWebhook({ url: `${receiver.url}/second` })
    expect(generated.secret).toMatch(/^whsec_.{32,}$/)

    const listed = await client.webhooks()
    expect(listed).toEqual((await s.call('GET', '/v1/webhooks')).body)
    expect(listed.webhooks.map((w) => w.id)).toEqual([created.id, generated.id])
    const { secret: _secret, ...view } = created
    expect(listed.webhooks[0]).toEqual(view)
    expect(listed.webhooks[0]).not.toHaveProperty('secret')

    const other = await s.receiver()
    const moved = await client.updateWebhook(generated.id, { url: other.url, secret: 'whsec_rotated_secret_9876543210' })
    expect(moved).toMatchObject({ id: generated.id, url: other.url, status: 'enabled' })
    expect(moved).not.toHaveProperty('secret')
    expect((await client.webhooks()).webhooks[1]).toEqual(moved)

    expect(await client.deleteWebhook(generated.id)).toBeUndefined()
    expect((await client.webhooks()).webhooks.map((w) => w.id)).toEqual([created.id])
  })

  it('refusals are ValidationError with the detail of the field, NotFoundError, AuthenticationError', async () => {
    const s = await scene({ env: { TAXATLAS_WEBHOOK_POLL_MS: '600000' } })
    const client = clientOf(s)
    for (const [input, loc, words] of [
      [{ url: 'http://93.184.216.34/hook' }, ['body', 'url'], /https/],
      [{ url: 'https://127.0.0.1:8443/hook' }, ['body', 'url'], /loopback/],
      [{ url: 'https://93.184.216.34/hook', secret: 'short' }, ['body', 'secret'], /./],
    ] as const) {
      const error = await rejection(client.createWebhook(input))
      expect(error, input.url).toBeInstanceOf(ValidationError)
      expect(error).toMatchObject({ status: 422, code: 'VALIDATION_ERROR' })
      expect(error.detail[0].loc).toEqual(loc)
      expect(error.detail[0].msg).toMatch(words)
    }
    expect((await client.webhooks()).webhooks).toEqual([])

    const { id } = await client.createWebhook({ url: 'https://93.184.216.34/hook' })
    const refusedUrl = await rejection(client.updateWebhook(id, { url: 'https://10.1.2.3/hook' }))
    expect(refusedUrl).toBeInstanceOf(ValidationError)
    expect(refusedUrl.detail[0]).toMatchObject({ loc: ['body', 'url'], msg: expect.stringMatching(/private/) })

    for (const call of [client.updateWebhook('wh_none', { secret: SECRET }), client.deleteWebhook('wh_none'), client.webhookDeliveries('wh_none')]) {
      const error = await rejection(call)
      expect(error).toBeInstanceOf(NotFoundError)
      expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND', message: 'No webhook wh_none on this account.' })
    }
    // Another account's endpoint is as unknown as one that does not exist.
    const { api_key: otherKey } = await s.server.createAccount('enterprise', 'other')
    await expect(clientOf(s, otherKey).deleteWebhook(id)).rejects.toBeInstanceOf(NotFoundError)

    const unauthorized = await rejection(clientOf(s, 'not-a-key').webhooks())
    expect(unauthorized).toBeInstanceOf(AuthenticationError)
    expect(unauthorized).toMatchObject({ status: 401, code: 'UNAUTHORIZED' })
    await expect(new TaxatlasClient({ baseUrl: s.server.url, maxRetries: 0 }).createWebhook({ url: 'https://93.184.216.34/hook' })).rejects.toBeInstanceOf(AuthenticationError)
    expect((await client.webhooks()).webhooks.map((w) => w.id)).toEqual([id])
  })
})

describe('webhookDeliveries()', () => {
  it('lists each delivery with its attempts as the route does; a body the receiver got verifies with the secret', async () => {
    const s = await scene()
    const client = clientOf(s)
    const receiver = await s.receiver()
    receiver.script(500)
    const { id } = await client.createWebhook({ url: receiver.url, secret: SECRET })
    await s.publish()
    await s.tick()
    let [pending] = (await client.webhookDeliveries(id)).deliveries
    expect(pending).toMatchObject({ status: 'pending', attempts: 1, last_status: 500, delivered_at: null })
    s.clock.advance(60_000)
    await s.tick()
    const listed = await client.webhookDeliveries(id)
    expect(listed).toEqual((await s.call('GET', `/v1/webhooks/${id}/deliveries`)).body)
    expect(listed.deliveries).toEqual([expect.objectContaining({ id: pending!.id, status: 'delivered', attempts: 2, last_status: 200, next_attempt_at: null })])
    expect((await client.webhookDeliveries(id, { limit: 1 })).deliveries).toHaveLength(1)

    const [, delivered] = receiver.received
    const body = JSON.parse(delivered!.body) as WebhookRateChanges
    const [t, v1] = String(delivered!.headers['taxatlas-signature']).split(',').map((part) => part.split('=')[1])
    expect(createHmac('sha256', SECRET).update(`${t}.${delivered!.body}`).digest('hex')).toBe(v1)
    expect(body.changes.length).toBe(listed.deliveries[0]!.change_count)

    for (const limit of [0, 501]) {
      const error = await rejection(client.webhookDeliveries(id, { limit }))
      expect(error).toBeInstanceOf(ValidationError)
      expect(error.detail[0].loc).toEqual(['query', 'limit'])
    }
  })

  it('updateWebhook({ enabled: true }) enables an endpoint disabled for failing; changes() told the account meanwhile', async () => {
    const s = await scene({ env: { ...LOOPBACK_ENV, TAXATLAS_WEBHOOK_DISABLE_AFTER_DAYS: '0.01' } })
    const client = clientOf(s)
    const receiver = await s.receiver()
    receiver.script(...Array.from({ length: 20 }, () => 500))
    const { id } = await client.createWebhook({ url: receiver.url })
    await s.publish()
    await s.tick()
    for (let round = 0; round < 20; round++) {
      const [record] = (await client.webhookDeliveries(id)).deliveries
      if (record!.status !== 'pending') break
      s.clock.set(Date.parse(record!.next_attempt_at!))
      await s.tick()
    }
    const [endpoint] = (await client.webhooks()).webhooks
    expect(endpoint).toMatchObject({ id, status: 'disabled', disabled_reason: expect.stringContaining('answered 500') })
    expect((await client.webhookDeliveries(id)).deliveries[0]!.status).toBe('failed')
    expect((await client.changes({ states: ['GA'], limit: 1 })).notices).toEqual([expect.objectContaining({ type: 'webhook_disabled', webhook_id: id })])

    expect(await client.updateWebhook(id, { enabled: true })).toMatchObject({ id, status: 'enabled', disabled_at: null, disabled_reason: null })
    expect((await client.changes({ states: ['GA'], limit: 1 })).notices).toEqual([])
  })
})

describe('pingWebhook(), webhookDelivery(), redeliverWebhookDelivery()', () => {
  it('send a ping and a delivery again, and read every attempt, as the routes answer', async () => {
    const s = await scene()
    const client = clientOf(s)
    const receiver = await s.receiver()
    const { id } = await client.createWebhook({ url: receiver.url, secret: SECRET })
    const ping = await client.pingWebhook(id)
    expect(ping).toMatchObject({ event_type: 'ping', status: 'pending', attempts: 0, redelivery_of: null })
    await receiver.arrived(1)
    await s.tick()
    const detail = await client.webhookDelivery(id, ping.id)
    expect(detail).toEqual((await s.call('GET', `/v1/webhooks/${id}/deliveries/${ping.id}`)).body)
    expect(detail).toMatchObject({ id: ping.id, status: 'delivered', attempt_history: [expect.objectContaining({ attempt: 1, status: 200, error: null })] })

    const again = await client.redeliverWebhookDelivery(id, ping.id)
    expect(again).toMatchObject({ redelivery_of: ping.id, event_id: ping.event_id, event_type: 'ping' })
    await receiver.arrived(2)
    expect(JSON.parse(receiver.received[1]!.body)).toMatchObject({ id: again.id, event_id: ping.event_id, type: 'ping' })

    for (const call of [client.webhookDelivery(id, 'whd_none'), client.redeliverWebhookDelivery(id, 'whd_none'), client.pingWebhook('wh_none')]) {
      await expect(call).rejects.toBeInstanceOf(NotFoundError)
    }
  })
})

describe('changePages()', () => {
  it('walks every page of /v1/changes in order, each change once, with the filters given', async () => {
    const s = await scene()
    await s.publish()
    const client = clientOf(s)
    const whole = (await s.call('GET', '/v1/changes?states=GA,CT&from=2020-01-01&limit=1000')).body
    expect(whole.next_cursor).toBeNull()
    expect(whole.changes.length).toBeGreaterThan(20)
    const pages = []
    for await (const page of client.changePages({ states: ['GA', 'CT'], from: '2020-01-01', limit: 7 })) pages.push(page)
    const sizes = pages.map((page) => page.changes.length)
    expect(sizes).toHaveLength(Math.ceil(whole.changes.length / 7))
    expect(sizes.slice(0, -1).every((size) => size === 7)).toBe(true)
    const changes: RateChange[] = pages.flatMap((page) => page.changes)
    expect(changes).toEqual(whole.changes)
    expect(pages.at(-1)!.next_cursor).toBeNull()

    const refused = client.changePages({ states: ['GX'] })
    await expect(refused.next()).rejects.toBeInstanceOf(ValidationError)
  })
})
