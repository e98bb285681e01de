// Webhook subscriptions on a real server (DuckDB, and PostgreSQL in the postgres project) with
// receivers on loopback: registration refuses what it must, a newly served snapshot's changes are
// POSTed signed to each endpoint, failed attempts (a 500, a timeout) are retried with the
// delivery's id and never sent again once a 2xx is seen, every attempt is kept, the deliveries of
// one event share its id, a rotated secret signs the next attempt beside the replaced one for the
// overlap, a ping and a redelivery are sent at once and once, a rollback announces nothing again,
// and an endpoint failing for the set period is disabled and its account told in /v1/changes. The
// server's clock is moved by hand: no test waits on time, except the attempt timeout itself.
import { Agent, request } from 'undici'
import { beforeAll, describe, expect, it } from 'vitest'
import { guardedLookup } from '../server/webhooks/webhook-url.ts'
import { documentedVerifier, type Verifier } from './support/documented-verifier.ts'
import { LOOPBACK_ENV, SECRET, webhookScenes } from './support/webhook-scene.ts'
import { startReceiver, type Received } from './support/webhook-receiver.ts'
import { startConnectProxy } from './support/connect-proxy.ts'

const PROXY_VARIABLES = ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'ALL_PROXY', 'all_proxy', 'NO_PROXY', 'no_proxy']

const startScene = webhookScenes()
const scene = (env: Record<string, string> = LOOPBACK_ENV, options: { nodes?: number } = {}) => startScene({ env, ...options })

let verify: Verifier
beforeAll(async () => {
  verify = await documentedVerifier()
})

/**
 * Checks the signature as a receiver does, with the code docs/api.md gives it; any age of `t`
 * (the server's clock is moved by hand).
 */
const signedWith = (received: Received, secret: string): boolean => verify(received.body, received.headers['taxatlas-signature'] as string | undefined, secret, Infinity)
const macsOf = (received: Received) => String(received.headers['taxatlas-signature']).split(',').filter((part) => part.startsWith('v1='))

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
    expect(document.paths['/v1/webhooks/{id}/deliveries/{delivery_id}'].get.operationId).toBe('getWebhookDelivery')
    expect(document.paths['/v1/webhooks/{id}/pings'].post.operationId).toBe('pingWebhook')
    expect(document.paths['/v1/webhooks/{id}/pings'].post.responses['202'].headers.Location).toBeDefined()
    expect(document.paths['/v1/webhooks/{id}/deliveries/{delivery_id}/attempts'].post.operationId).toBe('redeliverWebhookDelivery')
    expect(document.components.schemas.WebhookDeliveryDetail).toBeDefined()
    const delivery = document.webhooks['rate_changes.announced'].post
    expect(delivery.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/WebhookRateChanges')
    expect(delivery.parameters.map((p: any) => p.name)).toContain('Taxatlas-Signature')
    expect(document.webhooks.ping.post.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/WebhookPing')
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

  it('through a proxy (HTTP_PROXY), a delivery goes by a CONNECT tunnel to the address the URL check allowed, never to the name the proxy would resolve again; NO_PROXY sends it direct', async () => {
    const saved = Object.fromEntries(PROXY_VARIABLES.map((name) => [name, process.env[name]]))
    const proxy = await startConnectProxy((host, port) => (host === '127.0.0.1' || host === '::1' ? { address: host, port, family: host === '::1' ? 'IPv6' : 'IPv4' } : null))
    try {
      for (const name of PROXY_VARIABLES) delete process.env[name]
      process.env.HTTP_PROXY = proxy.url
      // a receiver named by its address, which NO_PROXY lists: sent to directly
      process.env.NO_PROXY = '127.0.0.1'
      const s = await scene()
      const receiver = await s.receiver()
      const direct = await s.receiver()
      const port = new URL(receiver.url).port
      // by name: the check resolves it and allows loopback here (LOOPBACK_ENV)
      await s.register({ ...receiver, url: receiver.url.replace('127.0.0.1', 'localhost') })
      await s.register(direct)
      await s.publish()
      await s.tick()
      expect(receiver.received).toHaveLength(1)
      expect(signedWith(receiver.received[0]!, SECRET)).toBe(true)
      expect(receiver.received[0]!.headers.host).toBe(`localhost:${port}`)
      expect(direct.received).toHaveLength(1)
      expect(proxy.tunnels).toHaveLength(1)
      expect(proxy.tunnels[0]).toMatch(new RegExp(`^(127\\.0\\.0\\.1|\\[::1\\]):${port}$`))
    } finally {
      for (const name of PROXY_VARIABLES) {
        if (saved[name] === undefined) delete process.env[name]
        else process.env[name] = saved[name]
      }
      await proxy.close()
    }
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

  it('signs with a rotated secret and, for the overlap, the replaced one too, which a receiver holding either accepts; then with the new one alone', async () => {
    const s = await scene()
    const receiver = await s.receiver()
    receiver.script(500)
    const webhookId = await s.register(receiver)
    await s.publish()
    await s.tick()
    const rotated = 'whsec_rotated_secret_9876543210'
    const rotatedAt = s.clock.now()
    const patched = await s.call('PATCH', `/v1/webhooks/${webhookId}`, { secret: rotated })
    expect(patched.status).toBe(200)
    // The default overlap: 24 hours.
    expect(patched.body.previous_secret_expires_at).toBe(new Date(rotatedAt + 24 * 3_600_000).toISOString())
    s.clock.advance(60_000)
    await s.tick()
    expect(receiver.received).toHaveLength(2)
    const [first, retried] = receiver.received
    expect(macsOf(first!)).toHaveLength(1)
    expect(signedWith(first!, SECRET)).toBe(true)
    // The retried attempt: the new secret's v1 first, then the old one's; a receiver checking
    // against either passes, against another secret fails.
    expect(macsOf(retried!)).toHaveLength(2)
    expect(signedWith(retried!, rotated)).toBe(true)
    expect(signedWith(retried!, SECRET)).toBe(true)
    expect(signedWith(retried!, `${SECRET}x`)).toBe(false)
    expect(signedWith({ ...retried!, headers: { 'taxatlas-signature': String(retried!.headers['taxatlas-signature']).split(',').slice(0, 2).join(',') } }, SECRET)).toBe(false)

    // Past the overlap: the new secret alone, and the endpoint says no other signs.
    s.clock.set(rotatedAt + 24 * 3_600_000)
    expect((await s.call('POST', `/v1/webhooks/${webhookId}/pings`)).status).toBe(202)
    await receiver.arrived(3)
    await s.tick()
    expect(macsOf(receiver.received[2]!)).toHaveLength(1)
    expect(signedWith(receiver.received[2]!, rotated)).toBe(true)
    expect(signedWith(receiver.received[2]!, SECRET)).toBe(false)
    expect((await s.call('GET', '/v1/webhooks')).body.webhooks[0].previous_secret_expires_at).toBeNull()

    // A rotation asking for no overlap (a leaked secret) stops the replaced one at once; one asking
    // for 2 hours keeps it 2 hours.
    const leaked = await s.call('PATCH', `/v1/webhooks/${webhookId}`, { secret: 'whsec_after_a_leak_0123456789', previous_secret_expires_in_hours: 0 })
    expect(leaked.body.previous_secret_expires_at).toBeNull()
    await s.call('POST', `/v1/webhooks/${webhookId}/pings`)
    await receiver.arrived(4)
    expect(macsOf(receiver.received[3]!)).toHaveLength(1)
    expect(signedWith(receiver.received[3]!, 'whsec_after_a_leak_0123456789')).toBe(true)
    expect(signedWith(receiver.received[3]!, rotated)).toBe(false)
    const short = await s.call('PATCH', `/v1/webhooks/${webhookId}`, { secret: 'whsec_short_overlap_0123456789', previous_secret_expires_in_hours: 2 })
    expect(short.body.previous_secret_expires_at).toBe(new Date(s.clock.now() + 2 * 3_600_000).toISOString())
    const alone = await s.call('PATCH', `/v1/webhooks/${webhookId}`, { previous_secret_expires_in_hours: 2 })
    expect(alone.status).toBe(422)
    expect(alone.body.detail[0].loc).toEqual(['body', 'previous_secret_expires_in_hours'])
    expect((await s.call('PATCH', `/v1/webhooks/${webhookId}`, { secret: 'whsec_too_long_overlap_0123', previous_secret_expires_in_hours: 169 })).status).toBe(422)
  })

  it('keeps every attempt of a delivery: when, the HTTP status, how long, the error', async () => {
    const s = await scene({ ...LOOPBACK_ENV, TAXATLAS_WEBHOOK_TIMEOUT_MS: '300' })
    const receiver = await s.receiver()
    receiver.script(500, 'hang')
    const webhookId = await s.register(receiver)
    await s.publish()
    const starts = [s.clock.now()]
    await s.tick()
    s.clock.advance(60_000)
    starts.push(s.clock.now())
    await s.tick()
    s.clock.advance(120_000)
    starts.push(s.clock.now())
    await s.tick()
    const [listed] = await s.deliveries(webhookId)
    expect(listed).toMatchObject({ status: 'delivered', attempts: 3 })
    const detail = await s.call('GET', `/v1/webhooks/${webhookId}/deliveries/${listed.id}`)
    expect(detail.status).toBe(200)
    expect(detail.body).toMatchObject({ ...listed })
    expect(detail.body.attempt_history.map((a: any) => [a.attempt, a.started_at, a.status, a.error])).toEqual([
      [1, new Date(starts[0]!).toISOString(), 500, 'answered 500'],
      [2, new Date(starts[1]!).toISOString(), null, 'no answer within 300 ms'],
      [3, new Date(starts[2]!).toISOString(), 200, null],
    ])
    for (const a of detail.body.attempt_history) expect(Number.isInteger(a.duration_ms) && a.duration_ms >= 0).toBe(true)
    expect((await s.call('GET', `/v1/webhooks/${webhookId}/deliveries/whd_none`)).status).toBe(404)
    const { api_key: other } = await s.server.createAccount('enterprise', 'other')
    expect((await s.call('GET', `/v1/webhooks/${webhookId}/deliveries/${listed.id}`, undefined, other)).status).toBe(404)
  })

  it("gives the deliveries of one event to several endpoints one event id, each with its own delivery id", async () => {
    const s = await scene()
    const receivers = [await s.receiver(), await s.receiver()]
    const ids = [await s.register(receivers[0]!), await s.register(receivers[1]!)]
    const { api_key: otherKey } = await s.server.createAccount('enterprise', 'another account')
    const otherReceiver = await s.receiver()
    await s.register(otherReceiver, SECRET, otherKey)
    await s.publish()
    await s.tick()
    const bodies = [...receivers, otherReceiver].map((r) => JSON.parse(r.received[0]!.body))
    expect(new Set(bodies.map((b) => b.event_id)).size).toBe(1)
    expect(bodies[0].event_id).toMatch(/^evt_/)
    expect(new Set(bodies.map((b) => b.id)).size).toBe(3)
    for (const [n, id] of ids.entries()) {
      const [record] = await s.deliveries(id)
      expect(record).toMatchObject({ id: bodies[n].id, event_id: bodies[0].event_id, event_type: 'rate_changes.announced', redelivery_of: null })
    }
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

describe('pings and redeliveries', () => {
  it('sends a ping at once, signed, and answers 202 with its delivery; a failed ping is not retried and does not count against the endpoint', async () => {
    const s = await scene()
    const receiver = await s.receiver()
    const webhookId = await s.register(receiver)
    const response = await fetch(`${s.server.url}/v1/webhooks/${webhookId}/pings`, { method: 'POST', headers: { 'X-API-Key': s.key } })
    expect(response.status).toBe(202)
    const accepted = await response.json()
    expect(accepted).toMatchObject({ event_type: 'ping', status: 'pending', attempts: 0, redelivery_of: null, change_count: 0, snapshot: s.baseId })
    expect(response.headers.get('location')).toBe(`/v1/webhooks/${webhookId}/deliveries/${accepted.id}`)
    // No tick: the request itself wakes the sender.
    await receiver.arrived(1)
    const [ping] = receiver.received
    expect(signedWith(ping!, SECRET)).toBe(true)
    expect(ping!.headers).toMatchObject({ 'taxatlas-event': 'ping', 'taxatlas-delivery': accepted.id, 'taxatlas-attempt': '1' })
    expect(JSON.parse(ping!.body)).toMatchObject({ id: accepted.id, event_id: accepted.event_id, type: 'ping', webhook_id: webhookId, url: receiver.url, snapshot: s.baseId })
    await s.tick()
    const detail = (await s.call('GET', `/v1/webhooks/${webhookId}/deliveries/${accepted.id}`)).body
    expect(detail).toMatchObject({ status: 'delivered', attempts: 1, last_status: 200 })
    expect(detail.attempt_history).toHaveLength(1)

    receiver.script(500)
    const failing = (await s.call('POST', `/v1/webhooks/${webhookId}/pings`)).body
    await receiver.arrived(2)
    await s.tick()
    expect((await s.call('GET', `/v1/webhooks/${webhookId}/deliveries/${failing.id}`)).body).toMatchObject({ status: 'failed', attempts: 1, last_status: 500, next_attempt_at: null })
    expect((await s.call('GET', '/v1/webhooks')).body.webhooks[0]).toMatchObject({ status: 'enabled', failing_since: null })
    s.clock.advance(7 * 86_400_000)
    await s.tick()
    expect(receiver.received).toHaveLength(2)

    expect((await s.call('POST', '/v1/webhooks/wh_none/pings')).status).toBe(404)
    const { api_key: other } = await s.server.createAccount('enterprise', 'other')
    expect((await s.call('POST', `/v1/webhooks/${webhookId}/pings`, undefined, other)).status).toBe(404)
    expect(receiver.received).toHaveLength(2)
  })

  it('sends a delivery again as a new delivery of the same event and body, once', async () => {
    const s = await scene()
    const receiver = await s.receiver()
    const webhookId = await s.register(receiver)
    await s.publish()
    await s.tick()
    const [original] = await s.deliveries(webhookId)
    expect(original.status).toBe('delivered')

    // Later, so the listing (newest first) puts the redelivery first.
    s.clock.advance(60_000)
    const again = await s.call('POST', `/v1/webhooks/${webhookId}/deliveries/${original.id}/attempts`)
    expect(again.status).toBe(202)
    expect(again.body).toMatchObject({ redelivery_of: original.id, event_id: original.event_id, event_type: 'rate_changes.announced', status: 'pending', snapshot: original.snapshot, change_count: original.change_count })
    expect(again.body.id).not.toBe(original.id)
    await receiver.arrived(2)
    await s.tick()
    const [first, second] = receiver.received.map((r) => JSON.parse(r.body))
    expect(second.id).toBe(again.body.id)
    expect({ ...second, id: first.id }).toEqual(first)
    expect(signedWith(receiver.received[1]!, SECRET)).toBe(true)
    expect(receiver.received[1]!.headers['taxatlas-delivery']).toBe(again.body.id)
    expect((await s.deliveries(webhookId)).map((d: any) => [d.id, d.status])).toEqual([
      [again.body.id, 'delivered'],
      [original.id, 'delivered'],
    ])

    // A redelivery that fails is not tried again, and does not make the endpoint failing.
    receiver.script(500)
    const failed = (await s.call('POST', `/v1/webhooks/${webhookId}/deliveries/${original.id}/attempts`)).body
    await receiver.arrived(3)
    await s.tick()
    expect((await s.call('GET', `/v1/webhooks/${webhookId}/deliveries/${failed.id}`)).body).toMatchObject({ status: 'failed', attempts: 1, next_attempt_at: null, last_status: 500 })
    expect((await s.call('GET', '/v1/webhooks')).body.webhooks[0].failing_since).toBeNull()
    s.clock.advance(86_400_000)
    await s.tick()
    expect(receiver.received).toHaveLength(3)

    expect((await s.call('POST', `/v1/webhooks/${webhookId}/deliveries/whd_none/attempts`)).status).toBe(404)
    const { api_key: other } = await s.server.createAccount('enterprise', 'other')
    expect((await s.call('POST', `/v1/webhooks/${webhookId}/deliveries/${original.id}/attempts`, undefined, other)).status).toBe(404)
  })

  it('pings and sends again to a disabled endpoint, leaving it disabled', async () => {
    // 0.001 days is 86.4 s: the third attempt (after 60 s, then 120 s) disables it.
    const s = await scene({ ...LOOPBACK_ENV, TAXATLAS_WEBHOOK_DISABLE_AFTER_DAYS: '0.001' })
    const receiver = await s.receiver()
    receiver.script(500, 500, 500)
    const webhookId = await s.register(receiver)
    await s.publish()
    await s.tick()
    for (const wait of [60_000, 120_000]) {
      s.clock.advance(wait)
      await s.tick()
    }
    const [failed] = await s.deliveries(webhookId)
    expect(failed).toMatchObject({ status: 'failed', attempts: 3 })
    expect((await s.call('GET', '/v1/webhooks')).body.webhooks[0].status).toBe('disabled')
    expect(receiver.received).toHaveLength(3)
    const ping = (await s.call('POST', `/v1/webhooks/${webhookId}/pings`)).body
    const again = (await s.call('POST', `/v1/webhooks/${webhookId}/deliveries/${failed.id}/attempts`)).body
    await receiver.arrived(5)
    await s.tick()
    for (const id of [ping.id, again.id]) expect((await s.call('GET', `/v1/webhooks/${webhookId}/deliveries/${id}`)).body.status).toBe('delivered')
    expect((await s.call('GET', '/v1/webhooks')).body.webhooks[0]).toMatchObject({ status: 'disabled' })
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
