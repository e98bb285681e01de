// The server's webhook work, on a timer: when the snapshot in service is one not handled yet, its
// new changes are announced (announcement.ts), once per store whatever the number of nodes (the
// store decides under a lock); then the deliveries due are claimed (one node sends each attempt)
// and sent, signed, at most `concurrency` at a time and one per endpoint at a time. An attempt runs
// on past its round: a receiver that answers only at the timeout holds up its own endpoint, never
// another's retries. A 2xx marks a delivery delivered, never sent again; anything else (another
// status, a timeout, a refused connection) schedules the next attempt with a doubling wait, and an
// endpoint failing for the set period is disabled. When the next delivery falls due is read from
// the store after each look, so retries scheduled before a restart go out when due. An attempt that
// fails for a reason of ours is not held against the endpoint (own-failures.ts). Each attempt's outcome
// and timing is recorded by the store (store/webhooks.ts), which also decides what a failure means
// for a delivery asked for (a ping, a redelivery: never retried).
import prettyMilliseconds from 'pretty-ms'
import { isIP } from 'node:net'
import type { Agent, Dispatcher } from 'undici'
import { outboundFailure, proxyFor } from '../../snapshot-contract/outbound-http.ts'
import { loadUndici, type Undici } from '../base/undici.ts'
import type { Clock } from '../base/clock.ts'
import type { Logger } from '../base/logger.ts'
import { utcDate } from '../sale/date-window.ts'
import type { Snapshot } from '../snapshot/open-snapshot.ts'
import type { NexusRegistrations } from '../store/nexus-registrations.ts'
import type { ClaimedDelivery, WebhookTable } from '../store/webhooks.ts'
import type { ChangeImpact } from '../changes/changes-feed.ts'
import type { StateChange } from '../changes/state-changes.ts'
import { announcementPlan, changesFirstSeenAfter } from './announcement.ts'
import type { AccountImpacts, NewChange } from './announcement.ts'
import { isReceiverFailure, WebhookOwnFailures } from './own-failures.ts'
import { retryDelayMs, type WebhookSettings } from './webhook-settings.ts'
import { SIGNATURE_HEADER, signatureHeader } from './webhook-signature.ts'
import { checkWebhookUrl, guardedLookup, type UrlCheck } from './webhook-url.ts'

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
  /** rounds now until nothing more is due: announce a snapshot not handled yet, send what is due and wait for the attempts (tests and the bench call it) */
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

/**
 * Where the proxy variables send a delivery through a proxy (HTTPS_PROXY, ALL_PROXY, NO_PROXY,
 * snapshot-contract/outbound-http.ts), its route: the tunnel is asked for the address the URL check
 * resolved and allowed, not for the name, which the proxy would resolve again (and could resolve into
 * a private range); TLS and the Host header still name the host. Null: a direct connection, whose
 * every resolution goes through the check (guardedLookup). The proxy itself may be on any address.
 */
function throughProxy(undici: Undici, check: Extract<UrlCheck, { ok: true }>, timeoutMs: number): { url: URL; dispatcher: Dispatcher } | null {
  const proxy = proxyFor(check.url)
  if (!proxy) return null
  const address = check.addresses[0]!
  const url = new URL(check.url)
  url.hostname = isIP(address) === 6 ? `[${address}]` : address
  const host = check.url.hostname.replace(/^\[(.*)\]$/, '$1')
  const dispatcher = new undici.ProxyAgent({ uri: proxy, connections: 1, proxyTls: { timeout: timeoutMs }, requestTls: { timeout: timeoutMs, ...(isIP(host) ? {} : { servername: host }) } })
  return { url, dispatcher }
}

export function startWebhookDispatcher(deps: DispatcherDeps): WebhookDispatcher {
  const { table, settings, clock, logger } = deps
  const ownFailures = deps.ownFailures ?? new WebhookOwnFailures(clock)
  let agent: Agent | null = null
  let handled: string | null = null
  let stopped = false
  let timer: NodeJS.Timeout | null = null
  let round: Promise<unknown> = Promise.resolve()
  /** the attempts under way, each until recorded */
  const sending = new Set<Promise<void>>()
  const failingFor = prettyMilliseconds(settings.disableAfterMs, { verbose: true, secondsDecimalDigits: 0 })
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
    const startedAt = iso(clock())
    const started = performance.now()
    const check = await checkWebhookUrl(delivery.url, settings)
    let status: number | null = null
    let error: string | null = check.ok ? null : `refused: ${check.reason}`
    if (check.ok) {
      let route: { url: URL; dispatcher: Dispatcher } | null = null
      try {
        const undici = await loadUndici()
        agent ??= new undici.Agent({ connections: settings.concurrency, connect: { timeout: settings.timeoutMs, lookup: guardedLookup(settings) } })
        route = throughProxy(undici, check, settings.timeoutMs)
        const response = await undici.request(route?.url ?? check.url, {
          method: 'POST',
          dispatcher: route?.dispatcher ?? agent,
          body: delivery.body,
          headers: {
            ...(route ? { host: check.url.host } : {}),
            'content-type': 'application/json',
            'user-agent': 'taxatlas-webhooks',
            'taxatlas-delivery': delivery.id,
            'taxatlas-event': delivery.eventType,
            'taxatlas-attempt': String(delivery.attempts),
            [SIGNATURE_HEADER.toLowerCase()]: signatureHeader(delivery.secrets, Math.floor(clock() / 1000), delivery.body),
          },
          signal: AbortSignal.timeout(settings.timeoutMs),
        })
        status = response.statusCode
        await response.body.dump().catch(() => undefined)
        if (status < 200 || status > 299) error = `answered ${status}`
      } catch (thrown) {
        if (!isReceiverFailure(thrown)) throw thrown
        const e = thrown as Error
        error = e.name === 'TimeoutError' || e.name === 'AbortError' ? `no answer within ${settings.timeoutMs} ms` : outboundFailure(e)
      } finally {
        // a tunnel is made for one attempt (it is to one address), and closed with it
        void route?.dispatcher.destroy().catch(() => undefined)
      }
    }
    if (check.ok) ownFailures.sent()
    const now = clock()
    const timing = { attempt: delivery.attempts, startedAt, durationMs: Math.round(performance.now() - started) }
    if (error === null) {
      await table.delivered(delivery.id, delivery.webhookId, iso(now), status!, timing)
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
      disabledReason: `every delivery attempt failed for ${failingFor}; the last: ${error.slice(0, ERROR_TEXT_LIMIT)}`,
      timing,
    })
    if (disabled) logger.warn('webhook_disabled', { webhook: delivery.webhookId, reason: error })
  }

  /** An attempt not sent, or not recorded, for a reason of ours: the delivery is tried again once its claim lapses. */
  const failedHere = (delivery: ClaimedDelivery, error: Error) => {
    const reason = `${error.name}: ${error.message}`
    if (ownFailures.failed(reason)) logger.error('webhook_own_failure', { delivery: delivery.id, webhook: delivery.webhookId, reason, stack: error.stack })
    wakeAt = Math.min(wakeAt, clock() + settings.timeoutMs + CLAIM_MARGIN_MS)
  }

  /** Claims what is due, up to the attempts free, and starts them; they run on past the round. */
  const deliverDue = async (): Promise<Promise<void>[]> => {
    wakeAt = clock() + IDLE_LOOK_MS
    const free = settings.concurrency - sending.size
    const now = clock()
    const claimed = free > 0 && !stopped ? await table.claimDue(iso(now), iso(now + settings.timeoutMs + CLAIM_MARGIN_MS), free) : []
    const started = claimed.map((delivery) => {
      const sent: Promise<void> = attempt(delivery)
        .catch((e: Error) => failedHere(delivery, e))
        .finally(() => {
          sending.delete(sent)
          // Its endpoint may have more due (one attempt per endpoint at a time), and its slot is free: look again now.
          wakeAt = 0
          if (!stopped) void nextRound()
        })
      sending.add(sent)
      return sent
    })
    const next = await table.nextDue()
    if (next !== null) wakeAt = Math.min(wakeAt, Date.parse(next))
    return started
  }

  /** One round; the attempts it started. */
  const once = async (): Promise<Promise<void>[]> => {
    let started: Promise<void>[] = []
    try {
      const snapshot = deps.current()
      if (snapshot.id !== handled && (await announce(snapshot))) {
        handled = snapshot.id
        // Its deliveries (made here or by another node) are due now.
        wakeAt = 0
      }
      if (clock() >= wakeAt) started = await deliverDue()
      failing = null
    } catch (error) {
      wakeAt = 0
      const reason = (error as Error).message
      if (reason !== failing) logger.warn('webhook_round_failed', { reason })
      failing = reason
    }
    return started
  }

  /** Rounds never overlap; the attempts a round starts do not hold up the next. */
  const nextRound = (): Promise<Promise<void>[]> => {
    const next = round.then(once)
    round = next
    return next
  }
  // A ping or redelivery asked for on this node is sent at once, not at the next idle look.
  const stopListening = table.onRequested(() => {
    round = round.then(() => void (wakeAt = 0))
    void nextRound()
  })
  const schedule = () => {
    if (stopped) return
    timer = setTimeout(() => void nextRound().then(schedule), settings.pollMs)
    timer.unref()
  }
  void nextRound().then(schedule)

  return {
    async tick() {
      // the attempts of every round count, a round a ping or redelivery asked for included
      for (let started = await nextRound(); started.length > 0 || sending.size > 0; started = await nextRound()) await Promise.all([...started, ...sending])
    },
    async stop() {
      stopped = true
      stopListening()
      if (timer) clearTimeout(timer)
      await round
      await Promise.all(sending)
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
