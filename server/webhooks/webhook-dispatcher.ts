// The server's webhook work, on a timer: when the snapshot in service is one not handled yet, its
// new changes are announced (announcement.ts), once per store whatever the number of nodes (the
// store decides under a lock); then the deliveries due are claimed (one node sends each attempt)
// and sent, signed, at most `concurrency` at a time. A 2xx marks a delivery delivered, never sent
// again; anything else (another status, a timeout, a refused connection) schedules the next
// attempt with a doubling wait, and an endpoint failing for the set period is disabled. An attempt
// that fails for a reason of ours is not held against the endpoint (own-failures.ts).
import pLimit from 'p-limit'
import type { Agent } from 'undici'
import { loadUndici } from '../base/undici.ts'
import type { Clock } from '../base/clock.ts'
import type { Logger } from '../base/logger.ts'
import { utcDate } from '../sale/date-window.ts'
import type { Snapshot } from '../snapshot/open-snapshot.ts'
import type { NexusRegistrations } from '../store/nexus-registrations.ts'
import type { ClaimedDelivery, WebhookTable } from '../store/webhooks.ts'
import type { ChangeImpact } from '../changes/changes-feed.ts'
import type { StateChange } from '../changes/state-changes.ts'
import { announcementPlan, changesFirstSeenAfter, WEBHOOK_EVENT_TYPE } from './announcement.ts'
import type { AccountImpacts, NewChange } from './announcement.ts'
import { isReceiverFailure, WebhookOwnFailures } from './own-failures.ts'
import { retryDelayMs, type WebhookSettings } from './webhook-settings.ts'
import { SIGNATURE_HEADER, signatureHeader } from './webhook-signature.ts'
import { checkWebhookUrl, guardedLookup } from './webhook-url.ts'

export type DispatcherDeps = {
  table: WebhookTable
  registrations: NexusRegistrations
  /** the snapshot in service now */
  current: () => Snapshot
  settings: WebhookSettings
  clock: Clock
  logger: Logger
  /** attempts failed for a reason of ours (own-failures.ts); kept by the dispatcher alone when absent */
  ownFailures?: WebhookOwnFailures
  /** an account's exposure to changes, put in each change of its deliveries; none when absent */
  impactOf?: (snapshot: Snapshot, accountId: string, changes: readonly StateChange[], today: string) => Promise<ReadonlyMap<StateChange, ChangeImpact>>
}

export type WebhookDispatcher = {
  /** one round now: announce a snapshot not handled yet, send what is due (tests and the bench call it) */
  tick(): Promise<void>
  stop(): Promise<void>
}

const iso = (ms: number) => new Date(ms).toISOString()
/** A claim outlasts the attempt's timeout by this much before another node may take the delivery. */
const CLAIM_MARGIN_MS = 30_000
const ERROR_TEXT_LIMIT = 300
/**
 * With nothing known to fall due, the store is asked for deliveries due this often rather than at
 * every round: an idle server leaves its store alone. What falls due sooner is known here (a snapshot
 * announced, an attempt failed here); this look finds the rest (another node's lapsed claim).
 */
const IDLE_LOOK_MS = 60_000

export function startWebhookDispatcher(deps: DispatcherDeps): WebhookDispatcher {
  const { table, settings, clock, logger } = deps
  const ownFailures = deps.ownFailures ?? new WebhookOwnFailures(clock)
  let agent: Agent | null = null
  const limit = pLimit(settings.concurrency)
  let handled: string | null = null
  let stopped = false
  let timer: NodeJS.Timeout | null = null
  let round: Promise<void> = Promise.resolve()
  /** the reason the last round failed, logged once while it lasts */
  let failing: string | null = null
  /** the clock time before which no delivery is known to be due */
  let wakeAt = 0

  const announce = async (snapshot: Snapshot) => {
    const after = await table.lastAnnounced()
    if (after !== null && snapshot.id <= after) return true
    const now = clock()
    // The first snapshot is a baseline; without endpoints there is nobody to tell.
    const endpoints = after === null ? [] : await table.active()
    const changes = endpoints.length ? await changesFirstSeenAfter(snapshot, after!, utcDate(now)) : []
    const statesOf = new Map<string, ReadonlySet<string> | null>()
    for (const accountId of new Set(endpoints.map((e) => e.accountId))) {
      const registered = await deps.registrations.list(accountId)
      statesOf.set(accountId, registered.length ? new Set(registered.map((r) => r.state)) : null)
    }
    const impacts = deps.impactOf && changes.length ? await impactsOf((...args) => deps.impactOf!(snapshot, ...args), changes, statesOf, utcDate(now)) : undefined
    const outcome = await table.announce(announcementPlan({ snapshot: snapshot.id, after, at: iso(now), changes, endpoints, statesOf, impacts }))
    if (outcome.kind === 'announced') logger.info('webhook_announced', { snapshot: snapshot.id, previous: after, changes: outcome.changes, deliveries: outcome.deliveries })
    return outcome.kind !== 'raced'
  }

  const attempt = async (delivery: ClaimedDelivery) => {
    const check = await checkWebhookUrl(delivery.url, settings)
    let status: number | null = null
    let error: string | null = check.ok ? null : `refused: ${check.reason}`
    if (check.ok) {
      try {
        const undici = await loadUndici()
        agent ??= new undici.Agent({ connections: settings.concurrency, connect: { timeout: settings.timeoutMs, lookup: guardedLookup(settings) } })
        const response = await undici.request(check.url, {
          method: 'POST',
          dispatcher: agent,
          body: delivery.body,
          headers: {
            'content-type': 'application/json',
            'user-agent': 'taxatlas-webhooks',
            'taxatlas-delivery': delivery.id,
            'taxatlas-event': WEBHOOK_EVENT_TYPE,
            'taxatlas-attempt': String(delivery.attempts),
            [SIGNATURE_HEADER.toLowerCase()]: signatureHeader(delivery.secret, Math.floor(clock() / 1000), delivery.body),
          },
          signal: AbortSignal.timeout(settings.timeoutMs),
        })
        status = response.statusCode
        await response.body.dump().catch(() => undefined)
        if (status < 200 || status > 299) error = `answered ${status}`
      } catch (thrown) {
        if (!isReceiverFailure(thrown)) throw thrown
        const e = thrown as Error
        error = e.name === 'TimeoutError' || e.name === 'AbortError' ? `no answer within ${settings.timeoutMs} ms` : `${(e as NodeJS.ErrnoException).code ?? e.name}: ${e.message}`
      }
    }
    if (check.ok) ownFailures.sent()
    const now = clock()
    if (error === null) {
      await table.delivered(delivery.id, delivery.webhookId, iso(now), status!)
      return
    }
    const retryAt = now + retryDelayMs(settings, delivery.attempts)
    wakeAt = Math.min(wakeAt, retryAt)
    const disabled = await table.failed({
      deliveryId: delivery.id,
      webhookId: delivery.webhookId,
      at: iso(now),
      status,
      error: error.slice(0, ERROR_TEXT_LIMIT),
      nextAttemptAt: iso(retryAt),
      disableIfFailingSince: iso(now - settings.disableAfterMs),
      disabledReason: `every delivery attempt failed for ${Math.round((settings.disableAfterMs / 86_400_000) * 100) / 100} days; the last: ${error.slice(0, ERROR_TEXT_LIMIT)}`,
    })
    if (disabled) logger.warn('webhook_disabled', { webhook: delivery.webhookId, reason: error })
  }

  /** An attempt not sent, or not recorded, for a reason of ours: the delivery is tried again once its claim lapses. */
  const failedHere = (delivery: ClaimedDelivery, error: Error) => {
    const reason = `${error.name}: ${error.message}`
    if (ownFailures.failed(reason)) logger.error('webhook_own_failure', { delivery: delivery.id, webhook: delivery.webhookId, reason, stack: error.stack })
    wakeAt = Math.min(wakeAt, clock() + settings.timeoutMs + CLAIM_MARGIN_MS)
  }

  const deliverDue = async () => {
    const batch = settings.concurrency * 4
    wakeAt = clock() + IDLE_LOOK_MS
    while (!stopped) {
      const now = clock()
      const claimed = await table.claimDue(iso(now), iso(now + settings.timeoutMs + CLAIM_MARGIN_MS), batch)
      await Promise.all(claimed.map((delivery) => limit(() => attempt(delivery).catch((e: Error) => failedHere(delivery, e)))))
      if (claimed.length < batch) return
    }
  }

  const once = async () => {
    try {
      const snapshot = deps.current()
      if (snapshot.id !== handled && (await announce(snapshot))) {
        handled = snapshot.id
        // Its deliveries (made here or by another node) are due now.
        wakeAt = 0
      }
      if (clock() >= wakeAt) await deliverDue()
      failing = null
    } catch (error) {
      wakeAt = 0
      const reason = (error as Error).message
      if (reason !== failing) logger.warn('webhook_round_failed', { reason })
      failing = reason
    }
  }

  const tick = () => (round = round.then(once))
  const schedule = () => {
    if (stopped) return
    timer = setTimeout(() => void tick().then(schedule), settings.pollMs)
    timer.unref()
  }
  void tick().then(schedule)

  return {
    tick,
    async stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      await round
      await agent?.close()
    },
  }
}

/** Each account's exposure to the changes in its states, as JSON text by change identity. */
type AccountImpactOf = (accountId: string, changes: readonly StateChange[], today: string) => Promise<ReadonlyMap<StateChange, ChangeImpact>>

async function impactsOf(impactOf: AccountImpactOf, changes: readonly NewChange[], statesOf: ReadonlyMap<string, ReadonlySet<string> | null>, today: string): Promise<AccountImpacts> {
  const impacts = new Map<string, Map<string, string>>()
  for (const [accountId, states] of statesOf) {
    const listed = changes.filter((change) => states === null || states.has(change.state))
    const computed = await impactOf(accountId, listed.map((change) => change.change), today)
    const texts = new Map<string, string>()
    for (const change of listed) {
      const impact = computed.get(change.change)
      if (impact) texts.set(change.identity, JSON.stringify(impact))
    }
    impacts.set(accountId, texts)
  }
  return impacts
}
