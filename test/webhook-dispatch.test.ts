// When webhook attempts are sent, on a real server whose own timer sends them (a short poll; the
// server's clock moved by hand), with receivers on loopback: a receiver that never answers holds up
// only its own endpoint, never another endpoint's retries nor its new deliveries; a retry scheduled
// before a restart goes out when it falls due, not at the next idle look a minute on; and an
// endpoint disabled after a short failing period says how long in words that are true.
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { WEBHOOK_EVENT_TYPE } from '../server/webhooks/announcement.ts'
import type { NewDelivery } from '../server/store/webhooks.ts'
import { startTestServer } from './support/server-harness.ts'
import { LOOPBACK_ENV, webhookScenes } from './support/webhook-scene.ts'
import type { Receiver } from './support/webhook-receiver.ts'

const startScene = webhookScenes()
// The server's timer looks every 50 ms; attempts may take ten minutes: a receiver that hangs hangs for the whole test.
const POLLED = { ...LOOPBACK_ENV, TAXATLAS_WEBHOOK_POLL_MS: '50', TAXATLAS_WEBHOOK_TIMEOUT_MS: '600000' }

/** Resolves once `receiver` has had `count` requests (the test's own timeout bounds the wait). */
async function received(receiver: Receiver, count: number): Promise<void> {
  while (receiver.received.length < count) await new Promise((resolve) => setTimeout(resolve, 20))
}

describe('webhook attempts sent by the server on its own', () => {
  it('a receiver that never answers holds up its own endpoint only: another endpoint is retried and sent to meanwhile', async () => {
    const s = await startScene({ env: POLLED })
    const hanging = await s.receiver()
    const other = await s.receiver()
    hanging.script('hang')
    other.script(500)
    const hangingId = await s.register(hanging)
    const otherId = await s.register(other)
    await s.publish()
    await Promise.all([received(hanging, 1), received(other, 1)])

    // A newer announcement (made in the store, as another node would) for both endpoints.
    const table = s.server.running.store.opened!.webhooks
    const last = (await table.lastAnnounced())!
    const endpoints = await table.active()
    const delivery = (id: string, webhookId: string): NewDelivery => ({ id, eventId: 'evt_announced_by_another_node', eventType: WEBHOOK_EVENT_TYPE, webhookId, accountId: endpoints.find((e) => e.id === webhookId)!.accountId, changeCount: 1, body: JSON.stringify({ id }) })
    const outcome = await table.announce({
      snapshot: `${last}-later`,
      at: new Date(s.clock.now()).toISOString(),
      after: last,
      candidates: ['a change announced by another node'],
      deliveries: () => [delivery('whd_second_to_hanging', hangingId), delivery('whd_second_to_other', otherId)],
    })
    expect(outcome).toMatchObject({ kind: 'announced', deliveries: 2 })

    // The other endpoint's retry falls due while the first attempt to `hanging` still waits for its
    // answer: the other endpoint is sent both its retry and its new delivery; `hanging` nothing more.
    // (the receiver has the first attempt; the server records its 500 once the answer is in)
    const firstToOther = async () => (await s.deliveries(otherId)).find((d: any) => d.id !== 'whd_second_to_other')
    await expect.poll(firstToOther).toMatchObject({ status: 'pending', attempts: 1, last_status: 500 })
    const failed = await firstToOther()
    s.clock.set(Date.parse(failed.next_attempt_at))
    await received(other, 3)
    // Recorded once their answers are in.
    await expect.poll(async () => (await s.deliveries(otherId)).map((d: any) => d.status)).toEqual(['delivered', 'delivered'])
    expect(hanging.received).toHaveLength(1)
    const toHanging = (await s.deliveries(hangingId)).map((d: any) => [d.id === 'whd_second_to_hanging' ? 'second' : 'first', d.status, d.attempts])
    expect(toHanging.sort()).toEqual([
      ['first', 'pending', 1],
      ['second', 'pending', 0],
    ])
  })

  it.skipIf(process.env.TAXATLAS_TEST_STORE === 'postgres')('a retry scheduled before a restart goes out when it falls due', async () => {
    const env = { ...POLLED, TAXATLAS_WEBHOOK_RETRY_BASE_MS: '10000' }
    const s = await startScene({ env })
    const receiver = await s.receiver()
    receiver.script(500)
    const webhookId = await s.register(receiver)
    await s.publish()
    await received(receiver, 1)
    const [failed] = await s.deliveries(webhookId)
    expect(failed).toMatchObject({ status: 'pending', attempts: 1 })
    await s.server.close()

    // The same store, the same clock: the retry is due 10 s on, well before the idle look a minute on.
    const restarted = await startTestServer({ artifactsDir: s.dir, storeDir: path.dirname(s.server.storePath), clock: s.clock, env })
    try {
      // Its first round looked, before the retry was due.
      await restarted.running.webhooks()!.tick()
      expect(receiver.received).toHaveLength(1)
      s.clock.set(Date.parse(failed.next_attempt_at))
      await received(receiver, 2)
      const deliveries = async () => (await (await fetch(`${restarted.url}/v1/webhooks/${webhookId}/deliveries`, { headers: { 'X-API-Key': s.key } })).json()).deliveries
      await expect.poll(deliveries).toMatchObject([{ status: 'delivered', attempts: 2 }])
    } finally {
      await restarted.close()
    }
  })

  it('says in true words how long an endpoint failed before it was disabled', async () => {
    // 0.001 days: 86.4 s, which once read "failed for 0 days".
    const s = await startScene({ env: { ...LOOPBACK_ENV, TAXATLAS_WEBHOOK_DISABLE_AFTER_DAYS: '0.001' } })
    const receiver = await s.receiver()
    receiver.script(...Array.from({ length: 5 }, () => 500))
    const webhookId = await s.register(receiver)
    await s.publish()
    await s.tick()
    for (let round = 0; round < 5; round++) {
      const [record] = await s.deliveries(webhookId)
      if (record.status !== 'pending') break
      s.clock.set(Date.parse(record.next_attempt_at))
      await s.tick()
    }
    const [endpoint] = (await s.call('GET', '/v1/webhooks')).body.webhooks
    expect(endpoint.status).toBe('disabled')
    expect(endpoint.disabled_reason).toMatch(/^every delivery attempt failed for 1 minute 26 seconds; the last: answered 500/)
  })
})
