// Webhooks for `make bench`: one announcement of 1,000 changes (the served snapshot's first 1,000 in
// the feed's order) to 100 endpoints — 100 accounts, each with every state — on a loopback
// receiver that answers 200, sent by the server's own dispatcher with its default concurrency. The
// figure runs from the start of the announcement (deriving the changes, writing the deliveries) to
// the last delivery recorded delivered.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { readCurrentId } from '../../snapshot-contract/snapshot-store.ts'
import { memoryLogger } from '../../server/base/logger.ts'
import { openSnapshot } from '../../server/snapshot/open-snapshot.ts'
import type { StoreLocation } from '../../server/store/store-location.ts'
import { openStore } from '../../server/store/store.ts'
import { announcementPlan, changesFirstSeenAfter } from '../../server/webhooks/announcement.ts'
import { startWebhookDispatcher } from '../../server/webhooks/webhook-dispatcher.ts'
import { WebhookEnv, webhookSettingsOf } from '../../server/webhooks/webhook-settings.ts'
import type { Measure } from './measure.ts'

const CHANGES = 1_000
const ENDPOINTS = 100
/** a snapshot id before any real one: the baseline the announcement follows */
const BASELINE = '2000-01-01T00-00-00-000Z'

export async function webhookMeasures(artifacts: string, target: { label: string; store: StoreLocation }): Promise<Measure[]> {
  const snapshot = await openSnapshot(artifacts, (await readCurrentId(artifacts))!, Date.now())
  const store = await openStore(target.store, { init: true })
  let received = 0
  let allReceived = () => {}
  const done = new Promise<void>((resolve) => (allReceived = resolve))
  const receiver = http.createServer((req, res) => {
    req.resume().on('end', () => {
      res.end('ok')
      if (++received === ENDPOINTS) allReceived()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const { port } = receiver.address() as AddressInfo
  try {
    const table = store.webhooks
    const at = new Date().toISOString()
    for (let n = 0; n < ENDPOINTS; n++) {
      await table.insert({ id: `wh_bench_${n}`, accountId: `bench_${n}`, url: `http://127.0.0.1:${port}/hook/${n}`, secret: `whsec_bench_secret_${n}`, createdAt: at, failingSince: null, disabledAt: null, disabledReason: null, previousSecret: null, previousSecretExpiresAt: null })
    }
    await table.announce(announcementPlan({ snapshot: BASELINE, after: null, at, changes: [], endpoints: [], statesOf: new Map() }))

    const started = performance.now()
    const changes = (await changesFirstSeenAfter(snapshot, BASELINE, at.slice(0, 10))).slice(0, CHANGES)
    if (changes.length < CHANGES) throw new Error(`webhooks bench: the snapshot holds ${changes.length} changes, fewer than ${CHANGES}`)
    const endpoints = await table.active()
    await table.announce(announcementPlan({ snapshot: snapshot.id, after: BASELINE, at, changes, endpoints, statesOf: new Map() }))
    const settings = { ...webhookSettingsOf(WebhookEnv.parse({})), allowLoopback: true }
    const dispatcher = startWebhookDispatcher({ table, registrations: store.registrations, current: () => snapshot, settings, clock: Date.now, logger: memoryLogger() })
    await done
    // The round that sent the last one ends once every outcome is recorded.
    await dispatcher.stop()
    const seconds = (performance.now() - started) / 1000
    const records = await Promise.all(endpoints.map((e) => table.deliveries(e.accountId, e.id, 10)))
    const delivered = records.flat().filter((d) => d.status === 'delivered' && d.changeCount === CHANGES).length
    if (delivered !== ENDPOINTS) throw new Error(`webhooks bench: ${delivered} of ${ENDPOINTS} deliveries recorded delivered`)
    return [{ name: `webhooks: ${CHANGES.toLocaleString('en-US')} changes announced to ${ENDPOINTS} endpoints, all delivered (${target.label})`, value: seconds, unit: 's', target: 60, better: 'lower' }]
  } finally {
    await new Promise<void>((resolve) => receiver.close(() => resolve()))
    await store.engine.close()
  }
}
