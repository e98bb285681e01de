// Webhook subscriptions on a real server (DuckDB, and PostgreSQL in the postgres project) with
// receivers on loopback: registration refuses what it must, a newly served snapshot's changes are
// POSTed signed to each endpoint, failed attempts (a 500, a timeout) are retried with the
// delivery's id and never sent again once a 2xx is seen, a rotated secret signs the next attempt,
// a rollback announces nothing again, and an endpoint failing for the set period is disabled and
// its account told in /v1/changes. The server's clock is moved by hand: no test waits on time,
// except the attempt timeout itself.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { Agent, request } from 'undici'
import { describe, expect, it } from 'vitest'
import { guardedLookup } from '../server/webhooks/webhook-url.ts'
import { LOOPBACK_ENV, SECRET, webhookScenes } from './support/webhook-scene.ts'
import { startReceiver, type Received } from './support/webhook-receiver.ts'

const startScene = webhookScenes()
const scene = (env: Record<string, string> = LOOPBACK_ENV, options: { nodes?: number } = {}) => startScene({ env, ...options })

/** Checks the signature as a receiver would: HMAC-SHA256 of "<t>.<body>" keyed by the secret. */
function signedWith(received: Received, secret: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(received.headers['taxatlas-signature']))
  if (!match) return false
  const expected = createHmac('sha256', secret).update(`${match[1]}.${received.body}`).digest()
  return timingSafeEqual(expected, Buffer.from(match[2]!, 'hex'))
}

describe('registering a webhook', () => {
  it('refuses http, loopback and private addresses unless the settings allow them, and answers a public https URL', async () => {
    const strict = await scene({ TAXATLAS_WEBHOOK_POLL_MS: '600000' })
    const refused = async (url: string, words: RegExp) => {
      const { status, body } = await strict.call('POST', '/v1/webhooks', { url })
      expect(status, url).toBe(422)
      expect(body.detail[0].loc, url).toEqual(['body', 'url'])
      expect(body.detail[0].msg, url).toMatch(words)
    }
    await refused('http://93.184.216.34/hook', /https/)
    await refused('ftp://93.184.216.34/hook', /scheme must be https/)
    await refused('https://127.0.0.1:8443/hook', /loopback/)
    await refused('https://localhost/hook', /loopback/)
    await refused('http://127.0.0.1:8443/hook', /loopback/)
    await refused('https://10.1.2.3/hook', /private/)
    await refused('https://192.168.0.7/hook', /private/)
    await refused('https://[fd00::1]/hook', /private/)
    await refused('https://[::ffff:10.0.0.1]/hook', /private/)
    await refused('https://0.0.0.0/hook', /not a destination/)
    await refused('https://user:pw@93.184.216.34/hook', /password/)
    await refused('not a url', /absolute URL/)
    const short = await strict.call('POST', '/v1/webhooks', { url: 'https://93.184.216.34/hook', secret: 'short' })
    expect(short.status).toBe(422)

    const created = await strict.call('POST', '/v1/webhooks', { url: 'https://93.184.216.34/hook' })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ url: 'https://93.184.216.34/hook', status: 'enabled', disabled_at: null })
    expect(created.body.secret).toMatch(/^whsec_.{32,}$/)
    const listed = await strict.call('GET', '/v1/webhooks')
    expect(listed.body.webhooks.map((w: any) => w.id)).toEqual([created.body.id])
    expect(listed.body.webhooks[0]).not.toHaveProperty('secret')
    await strict.server.close()

    const loose = await scene({ TAXATLAS_WEBHOOK_POLL_MS: '600000', TAXATLAS_WEBHOOK_ALLOW_LOOPBACK: '1' })
    expect((await loose.call('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/hook' })).status).toBe(201)
    expect((await loose.call('POST', '/v1/webhooks', { url: 'https://10.1.2.3/hook' })).status).toBe(422)
    expect((await loose.call('POST', '/v1/webhooks', { url: 'http://93.184.216.34/hook' })).status).toBe(422)
    await loose.server.close()

    const internal = await scene({ TAXATLAS_WEBHOOK_POLL_MS: '600000', TAXATLAS_WEBHOOK_ALLOW_PRIVATE: '1' })
    expect((await internal.call('POST', '/v1/webhooks', { url: 'https://10.1.2.3/hook' })).status).toBe(201)
    expect((await internal.call('POST', '/v1/webhooks', { url: 'http://10.1.2.3/hook' })).status).toBe(422)
    expect((await internal.call('POST', '/v1/webhooks', { url: 'https://127.0.0.1/hook' })).status).toBe(422)
  })

  it("keeps each account's endpoints its own: another key neither lists, changes nor removes them", async () => {
    const s = await scene()
    const id = await s.register(await s.receiver())
    const { api_key: other } = await s.server.createAccount('enterprise', 'other')
    expect((await s.call('GET', '/v1/webhooks', undefined, other)).body.webhooks).toEqual([])
    expect((await s.call('PATCH', `/v1/webhooks/${id}`, { secret: 'x'.repeat(20) }, other)).status).toBe(404)
    expect((await s.call('GET', `/v1/webhooks/${id}/deliveries`, undefined, other)).status).toBe(404)
    expect((await s.call('DELETE', `/v1/webhooks/${id}`, undefined, other)).status).toBe(404)
    expect((await s.call('DELETE', `/v1/webhooks/${id}`)).status).toBe(204)
    expect((await s.call('GET', '/v1/webhooks')).body.webhooks).toEqual([])
  })
  it("connects an attempt only to an address the policy allows, whatever the name resolves to when it connects", async () => {
    const receiver = await startReceiver()
    const byName = receiver.url.replace('127.0.0.1', 'localhost')
    const send = async (allowLoopback: boolean) => {
      const agent = new Agent({ connect: { lookup: guardedLookup({ allowLoopback, allowPrivate: false }) } })
      try {
        return await request(byName, { method: 'POST', body: '{}', dispatcher: agent }).then((r) => r.statusCode)
      } finally {
        await agent.close()
      }
    }
    try {
      await expect(send(false)).rejects.toThrow(/localhost is a loopback address/)
      expect(receiver.received).toHaveLength(0)
      expect(await send(true)).toBe(200)
      expect(receiver.received).toHaveLength(1)
    } finally {
      await receiver.close()
    }
  })

  it('are described in the OpenAPI document, with what a delivery sends', async () => {
    const s = await scene()
    const document = await (await fetch(`${s.server.url}/openapi.json`)).json()
    expect(document.paths['/v1/webhooks'].post.operationId).toBe('createWebhook')
    expect(document.paths['/v1/webhooks/{id}'].patch.operationId).toBe('updateWebhook')
    expect(document.paths['/v1/webhooks/{id}/deliveries'].get.operationId).toBe('listWebhookDeliveries')
    const delivery = document.webhooks['rate_changes.announced'].post
    expect(delivery.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/WebhookRateChanges')
    expect(delivery.parameters.map((p: any) => p.name)).toContain('Taxatlas-Signature')
    expect(document.components.schemas.RateChanges.properties.notices).toBeDefined()
  })
})

describe('deliveries', () => {
  it("POSTs a newly served snapshot's new changes, signed, to each endpoint, in its account's states", async () => {
    const s = await scene()
    const receiver = await s.receiver()
    const webhookId = await s.register(receiver)
    // An account registered only in CT, where nothing is new, is sent nothing.
    const { api_key: ctKey } = await s.server.createAccount('enterprise', 'ct only')
    expect((await s.call('PUT', '/v1/portability/nexus', { regions: [{ state: 'CT' }] }, ctKey)).status).toBe(200)
    const ctReceiver = await s.receiver()
    await s.register(ctReceiver, SECRET, ctKey)

    // A sale in Atlanta a week ago: the changes touching Atlanta carry it as their exposure.
    const today = new Date(s.clock.now()).toISOString().slice(0, 10)
    const sold = new Date(s.clock.now() - 7 * 86_400_000).toISOString().slice(0, 10)
    expect((await s.call('POST', '/v1/portability/orders', { transaction_id: 'atl-1', transaction_date: sold, to_zip: '30303', to_state: 'GA', amount: '100.00', sales_tax: '8.90' })).status).toBe(201)

    const published = await s.publish()
    await s.tick()
    expect(receiver.received).toHaveLength(1)
    expect(ctReceiver.received).toHaveLength(0)
    const [delivery] = receiver.received
    expect(signedWith(delivery!, SECRET)).toBe(true)
    expect(signedWith(delivery!, `${SECRET}x`)).toBe(false)
    const body = JSON.parse(delivery!.body)
    expect(delivery!.headers['taxatlas-delivery']).toBe(body.id)
    expect(body).toMatchObject({ type: 'rate_changes.announced', webhook_id: webhookId, snapshot: published, previous_snapshot: s.baseId })
    // Exactly what the feed lists as first seen after the baseline: GA's changes, each with the account's exposure.
    const feed = await s.call('GET', `/v1/changes?since=${s.baseId}&limit=1000&impact=true`)
    expect(feed.body.changes.length).toBeGreaterThan(0)
    expect(new Set(feed.body.changes.map((c: any) => c.state))).toEqual(new Set(['GA']))
    expect(body.changes).toEqual(feed.body.changes)
    expect(body.changes.every((c: any) => c.impact.window.to === today)).toBe(true)
    expect(body.changes.filter((c: any) => c.impact.transactions === 1 && c.impact.gross_sales === '100.00').length).toBeGreaterThan(0)

    const [record] = await s.deliveries(webhookId)
    expect(record).toMatchObject({ id: body.id, snapshot: published, status: 'delivered', attempts: 1, last_status: 200, next_attempt_at: null, change_count: body.changes.length })
    // Nothing is sent again, however long it waits.
    s.clock.advance(7 * 86_400_000)
    await s.tick()
    expect(receiver.received).toHaveLength(1)
  })

  it('retries an endpoint that answered 500 after the backoff, with the same delivery id, and never again once it answered 2xx', async () => {
    const s = await scene()
    const receiver = await s.receiver()
    receiver.script(500, 503)
    const webhookId = await s.register(receiver)
    await s.publish()
    await s.tick()
    expect(receiver.received).toHaveLength(1)
    let [record] = await s.deliveries(webhookId)
    expect(record).toMatchObject({ status: 'pending', attempts: 1, last_status: 500, last_error: 'answered 500', next_attempt_at: new Date(s.clock.now() + 60_000).toISOString() })
    // Not due yet: nothing is sent.
    await s.tick()
    expect(receiver.received).toHaveLength(1)
    s.clock.advance(60_000)
    await s.tick()
    ;[record] = await s.deliveries(webhookId)
    // The wait doubles after each failure.
    expect(record).toMatchObject({ status: 'pending', attempts: 2, last_status: 503, next_attempt_at: new Date(s.clock.now() + 120_000).toISOString() })
    s.clock.advance(120_000)
    await s.tick()
    s.clock.advance(86_400_000)
    await s.tick()
    expect(receiver.received).toHaveLength(3)
    expect(new Set(receiver.received.map((r) => r.headers['taxatlas-delivery']))).toEqual(new Set([record.id]))
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1)
    ;[record] = await s.deliveries(webhookId)
    expect(record).toMatchObject({ status: 'delivered', attempts: 3, last_status: 200, last_error: null, next_attempt_at: null })
    expect((await s.call('GET', '/v1/webhooks')).body.webhooks[0].failing_since).toBeNull()
  })

  it('counts an attempt with no answer within the timeout as failed, and retries it', async () => {
    const s = await scene({ ...LOOPBACK_ENV, TAXATLAS_WEBHOOK_TIMEOUT_MS: '300' })
    const receiver = await s.receiver()
    receiver.script('hang')
    const webhookId = await s.register(receiver)
    await s.publish()
    await s.tick()
    let [record] = await s.deliveries(webhookId)
    expect(record).toMatchObject({ status: 'pending', attempts: 1, last_status: null, last_error: 'no answer within 300 ms' })
    s.clock.advance(60_000)
    await s.tick()
    ;[record] = await s.deliveries(webhookId)
    expect(record).toMatchObject({ status: 'delivered', attempts: 2, last_status: 200 })
    expect(receiver.received).toHaveLength(2)
  })

  it('signs the next attempt with a secret rotated while the delivery was being retried', async () => {
    const s = await scene()
    const receiver = await s.receiver()
    receiver.script(500)
    const webhookId = await s.register(receiver)
    await s.publish()
    await s.tick()
    const rotated = 'whsec_rotated_secret_9876543210'
    expect((await s.call('PATCH', `/v1/webhooks/${webhookId}`, { secret: rotated })).status).toBe(200)
    s.clock.advance(60_000)
    await s.tick()
    expect(receiver.received).toHaveLength(2)
    expect(signedWith(receiver.received[0]!, SECRET)).toBe(true)
    expect(signedWith(receiver.received[1]!, rotated)).toBe(true)
    expect(signedWith(receiver.received[1]!, SECRET)).toBe(false)
  })

  it('announces nothing again after a rollback, even when the rolled-back snapshot is gone and a later one holds the same changes', async () => {
    const s = await scene()
    const receiver = await s.receiver()
    const webhookId = await s.register(receiver)
    const rolledBack = await s.publish()
    await s.tick()
    expect(receiver.received).toHaveLength(1)

    await s.serve(s.baseId)
    await s.tick()
    await s.serve(rolledBack)
    await s.tick()
    expect(receiver.received).toHaveLength(1)

    // The rolled-back snapshot removed: the next one is the first held with GA's changes, so the
    // feed dates them by it; they were announced already all the same.
    await s.serve(s.baseId)
    await s.removeSnapshot(rolledBack)
    const later = await s.publish()
    const feed = await s.call('GET', `/v1/changes?since=${rolledBack}&limit=1`)
    expect(feed.body.changes[0].first_seen.snapshot).toBe(later)
    await s.tick()
    expect(receiver.received).toHaveLength(1)
    expect(await s.deliveries(webhookId)).toHaveLength(1)
  })

  it('disables an endpoint failing for the set period, fails its pending deliveries, and tells the account in /v1/changes', async () => {
    const s = await scene({ ...LOOPBACK_ENV, TAXATLAS_WEBHOOK_DISABLE_AFTER_DAYS: '0.01' })
    const receiver = await s.receiver()
    receiver.script(...Array.from({ length: 20 }, () => 500))
    const webhookId = await s.register(receiver)
    await s.publish()
    await s.tick()
    const started = s.clock.now()
    for (let round = 0; round < 20; round++) {
      const [record] = await s.deliveries(webhookId)
      if (record.status !== 'pending') break
      s.clock.set(Date.parse(record.next_attempt_at))
      await s.tick()
    }
    const [record] = await s.deliveries(webhookId)
    expect(record.status).toBe('failed')
    expect(record.next_attempt_at).toBeNull()
    // 0.01 days is 864 s: disabled at the first failure at least that long after the first one.
    const [endpoint] = (await s.call('GET', '/v1/webhooks')).body.webhooks
    expect(endpoint.status).toBe('disabled')
    expect(Date.parse(endpoint.disabled_at) - started).toBeGreaterThanOrEqual(864_000)
    expect(Date.parse(record.last_attempt_at)).toBe(Date.parse(endpoint.disabled_at))
    expect(endpoint.disabled_reason).toContain('answered 500')

    const attempts = receiver.received.length
    s.clock.advance(86_400_000)
    await s.tick()
    expect(receiver.received).toHaveLength(attempts)

    const feed = await s.call('GET', '/v1/changes?states=GA&limit=1')
    expect(feed.body.notices).toEqual([{ type: 'webhook_disabled', webhook_id: webhookId, url: receiver.url, disabled_at: endpoint.disabled_at, message: expect.stringContaining(`PATCH /v1/webhooks/${webhookId}`) }])

    const enabled = await s.call('PATCH', `/v1/webhooks/${webhookId}`, { enabled: true })
    expect(enabled.body).toMatchObject({ status: 'enabled', disabled_at: null, failing_since: null })
    expect((await s.call('GET', '/v1/changes?states=GA&limit=1')).body.notices).toEqual([])
  })
})

// Its own database either way: run once, in the default project.
describe.skipIf(process.env.TAXATLAS_TEST_STORE === 'postgres')('several nodes on one PostgreSQL database', () => {
  it('announce each snapshot once and send each attempt from one node only', async () => {
    const s = await scene(LOOPBACK_ENV, { nodes: 3 })
    const receivers = [await s.receiver(), await s.receiver(), await s.receiver()]
    receivers[0]!.script(500)
    const ids = []
    for (const receiver of receivers) ids.push(await s.register(receiver))
    await s.publish()
    await s.tick()
    await s.tick()
    expect(receivers.map((r) => r.received.length)).toEqual([1, 1, 1])
    s.clock.advance(60_000)
    await s.tick()
    s.clock.advance(86_400_000)
    await s.tick()
    expect(receivers.map((r) => r.received.length)).toEqual([2, 1, 1])
    for (const id of ids) expect((await s.deliveries(id)).map((d: any) => d.status)).toEqual(['delivered'])
  })
})
