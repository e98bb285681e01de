// Webhook endpoints, the deliveries made to them, and what has been announced: the records behind
// /v1/webhooks (server/webhooks/ decides what to send and when). Times are ISO 8601 UTC text of
// one length, so they compare as text in both engines. The tables: DuckDB below, PostgreSQL in
// postgres/pg-webhooks.ts.
import type { Database } from './database.ts'

const SCHEMA = [
  // The secret signs deliveries, so it is kept as given (a key is kept only as its hash); so is the
  // one a rotation replaced, while it signs beside the new one, until previous_secret_expires_at.
  `CREATE TABLE IF NOT EXISTS webhooks (
     id VARCHAR PRIMARY KEY, account_id VARCHAR NOT NULL, url VARCHAR NOT NULL, secret VARCHAR NOT NULL,
     created_at VARCHAR NOT NULL, failing_since VARCHAR, disabled_at VARCHAR, disabled_reason VARCHAR,
     previous_secret VARCHAR, previous_secret_expires_at VARCHAR)`,
  `CREATE TABLE IF NOT EXISTS webhook_deliveries (
     id VARCHAR PRIMARY KEY, webhook_id VARCHAR NOT NULL, account_id VARCHAR NOT NULL, snapshot VARCHAR NOT NULL,
     change_count BIGINT NOT NULL, body VARCHAR NOT NULL, status VARCHAR NOT NULL, attempts BIGINT NOT NULL,
     created_at VARCHAR NOT NULL, next_attempt_at VARCHAR, claimed_until VARCHAR, last_attempt_at VARCHAR,
     last_status BIGINT, last_error VARCHAR, delivered_at VARCHAR,
     event_id VARCHAR, event_type VARCHAR, on_request BOOLEAN, redelivery_of VARCHAR)`,
  // A store made before these columns existed gets them, in the order CREATE TABLE gives them
  // (the appender writes rows by position); its deliveries are given theirs by LEGACY_DELIVERIES.
  ...['previous_secret VARCHAR', 'previous_secret_expires_at VARCHAR'].map((column) => `ALTER TABLE webhooks ADD COLUMN IF NOT EXISTS ${column}`),
  ...['event_id VARCHAR', 'event_type VARCHAR', 'on_request BOOLEAN', 'redelivery_of VARCHAR'].map((column) => `ALTER TABLE webhook_deliveries ADD COLUMN IF NOT EXISTS ${column}`),
  // Every attempt of every delivery: when it started, the HTTP status (null when none came), how
  // long it took (null for the last attempt of a delivery made before attempts were kept) and why it failed.
  `CREATE TABLE IF NOT EXISTS webhook_attempts (
     delivery_id VARCHAR NOT NULL, attempt BIGINT NOT NULL, started_at VARCHAR NOT NULL, status BIGINT,
     duration_ms BIGINT, error VARCHAR, PRIMARY KEY (delivery_id, attempt))`,
  // One row per snapshot whose new changes were announced (the first one served: none, a baseline).
  `CREATE TABLE IF NOT EXISTS webhook_announcements (snapshot VARCHAR PRIMARY KEY, announced_at VARCHAR NOT NULL, change_count BIGINT NOT NULL)`,
  // Every change announced, by identity: never announced again, whichever snapshot holds it next.
  `CREATE TABLE IF NOT EXISTS webhook_announced_changes (identity VARCHAR PRIMARY KEY, snapshot VARCHAR NOT NULL)`,
]

/**
 * For deliveries made before events and attempts were kept (as migration 6 does in PostgreSQL):
 * one event id per snapshot, and their last attempt as the one attempt known.
 */
const LEGACY_DELIVERIES = [
  `INSERT INTO webhook_attempts (delivery_id, attempt, started_at, status, duration_ms, error)
   SELECT id, attempts, last_attempt_at, last_status, NULL, last_error FROM webhook_deliveries
   WHERE event_id IS NULL AND last_attempt_at IS NOT NULL AND (last_status IS NOT NULL OR last_error IS NOT NULL)`,
  `UPDATE webhook_deliveries SET event_id = 'evt_' || substr(md5(snapshot), 1, 24), event_type = 'rate_changes.announced', on_request = false WHERE event_id IS NULL`,
]


export type WebhookEndpoint = {
  id: string
  accountId: string
  url: string
  secret: string
  createdAt: string
  /** the first failed attempt since the last delivered one; null while deliveries succeed */
  failingSince: string | null
  disabledAt: string | null
  disabledReason: string | null
  /** the secret a rotation replaced, signing beside `secret` until `previousSecretExpiresAt` */
  previousSecret: string | null
  previousSecretExpiresAt: string | null
}

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]

export const WEBHOOK_EVENT_TYPES = ['rate_changes.announced', 'ping'] as const
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]

export type DeliveryRecord = {
  id: string
  webhookId: string
  accountId: string
  eventId: string
  eventType: WebhookEventType
  snapshot: string
  changeCount: number
  status: DeliveryStatus
  attempts: number
  createdAt: string
  nextAttemptAt: string | null
  lastAttemptAt: string | null
  lastStatus: number | null
  lastError: string | null
  deliveredAt: string | null
  /** asked for (a ping, a redelivery): one attempt, never retried, never counted against the endpoint */
  onRequest: boolean
  /** the delivery this one sends again, for a redelivery */
  redeliveryOf: string | null
}

/** One attempt of a delivery, as recorded when it ended. */
export type AttemptRecord = {
  attempt: number
  startedAt: string
  /** the HTTP status answered; null when none came */
  status: number | null
  /** null for the one attempt known of a delivery made before attempts were kept */
  durationMs: number | null
  error: string | null
}

/** A delivery with its body and every attempt, oldest first. */
export type DeliveryDetail = DeliveryRecord & { body: string; attemptLog: AttemptRecord[] }

export type NewDelivery = { id: string; eventId: string; eventType: WebhookEventType; webhookId: string; accountId: string; changeCount: number; body: string }

/** A delivery asked for, sent at `at` once: a ping, or a redelivery of an earlier one. */
export type RequestedDelivery = NewDelivery & { snapshot: string; at: string; redeliveryOf: string | null }

/**
 * A delivery claimed for one attempt: its body, and where to send it now, signed with each of
 * `secrets` (the endpoint's secret, then the one a rotation replaced while it still signs).
 */
export type ClaimedDelivery = { id: string; webhookId: string; eventType: WebhookEventType; body: string; attempts: number; url: string; secrets: string[] }

export type EndpointChanges = {
  url?: string
  /** a new secret; the one it replaces signs beside it until `previousSecretExpiresAt`, or stops at once when that is null */
  secret?: string
  previousSecretExpiresAt?: string | null
  enabled?: boolean
}

/** What the dispatcher measured of an attempt, recorded with its outcome. */
export type AttemptTiming = { attempt: number; startedAt: string; durationMs: number }

export type FailedAttempt = {
  deliveryId: string
  webhookId: string
  at: string
  status: number | null
  error: string
  nextAttemptAt: string
  /** the endpoint is disabled when it has been failing since this time or earlier */
  disableIfFailingSince: string
  disabledReason: string
  timing: AttemptTiming
}

/**
 * `candidates`: the identities of the changes the snapshot holds that were first seen after
 * `after`; `deliveries`: what to send, given those not announced before.
 */
export type AnnouncementPlan = {
  snapshot: string
  at: string
  after: string | null
  candidates: readonly string[]
  deliveries: (fresh: ReadonlySet<string>) => NewDelivery[]
}

export type AnnouncementOutcome = { kind: 'announced'; changes: number; deliveries: number } | { kind: 'not_newer'; last: string } | { kind: 'raced' }

export type WebhookTable = {
  insert(endpoint: WebhookEndpoint): Promise<void>
  /** the account's endpoints, oldest first */
  list(accountId: string): Promise<WebhookEndpoint[]>
  /** the endpoint as changed (enabled: true clears a disabling and the failing period), or null when the account has none by that id */
  update(accountId: string, id: string, changes: EndpointChanges): Promise<WebhookEndpoint | null>
  /** removes the endpoint and its delivery records; false when the account has none by that id */
  remove(accountId: string, id: string): Promise<boolean>
  /** every endpoint not disabled */
  active(): Promise<WebhookEndpoint[]>
  /** the newest snapshot announced (or taken as the baseline), null before the first */
  lastAnnounced(): Promise<string | null>
  /**
   * In one transaction, unless another node announced since `plan.after` was read (raced) or the
   * snapshot is not newer than the last announced: records the snapshot, the changes not announced
   * before among the candidates, and the deliveries.
   */
  announce(plan: AnnouncementPlan): Promise<AnnouncementOutcome>
  /** records a delivery asked for, due at once, and tells those listening (`onRequested`) on this node */
  request(delivery: RequestedDelivery): Promise<void>
  /** calls `listener` after each delivery requested on this node; returns the call that stops it */
  onRequested(listener: () => void): () => void
  /**
   * up to `limit` pending deliveries due at `now` and not claimed, each claimed until `until` with
   * its attempt counted; at most one per endpoint, and none of an endpoint with an attempt under way
   */
  claimDue(now: string, until: string, limit: number): Promise<ClaimedDelivery[]>
  /** when the next pending delivery falls due (its next attempt, or the end of its claim), null when none is pending */
  nextDue(): Promise<string | null>
  /** records a 2xx attempt */
  delivered(deliveryId: string, webhookId: string, at: string, status: number, timing: AttemptTiming): Promise<void>
  /**
   * records a failed attempt; true when it disabled the endpoint (its pending deliveries are then
   * failed). A delivery asked for is failed at once, and the endpoint left as it was.
   */
  failed(attempt: FailedAttempt): Promise<boolean>
  /** the endpoint's deliveries, newest first */
  deliveries(accountId: string, webhookId: string, limit: number): Promise<DeliveryRecord[]>
  /** one delivery of the account's endpoint, with its body and attempts; null when there is none by that id */
  delivery(accountId: string, webhookId: string, deliveryId: string): Promise<DeliveryDetail | null>
}

const text = (value: unknown) => (value === null || value === undefined ? null : String(value))
const integer = (value: unknown) => (value === null || value === undefined ? null : Number(value))

/** An endpoint from a row of either engine's `webhooks` table. */
export const endpointOf = (row: Record<string, unknown>): WebhookEndpoint => ({
  id: String(row.id),
  accountId: String(row.account_id),
  url: String(row.url),
  secret: String(row.secret),
  createdAt: String(row.created_at),
  failingSince: text(row.failing_since),
  disabledAt: text(row.disabled_at),
  disabledReason: text(row.disabled_reason),
  previousSecret: text(row.previous_secret),
  previousSecretExpiresAt: text(row.previous_secret_expires_at),
})

/** A delivery record from a row of either engine's `webhook_deliveries` table. */
export const deliveryOf = (row: Record<string, unknown>): DeliveryRecord => ({
  id: String(row.id),
  webhookId: String(row.webhook_id),
  accountId: String(row.account_id),
  eventId: String(row.event_id),
  eventType: String(row.event_type) as WebhookEventType,
  snapshot: String(row.snapshot),
  changeCount: Number(row.change_count),
  status: String(row.status) as DeliveryStatus,
  attempts: Number(row.attempts),
  createdAt: String(row.created_at),
  nextAttemptAt: text(row.next_attempt_at),
  lastAttemptAt: text(row.last_attempt_at),
  lastStatus: integer(row.last_status),
  lastError: text(row.last_error),
  deliveredAt: text(row.delivered_at),
  onRequest: row.on_request === true,
  redeliveryOf: text(row.redelivery_of),
})

export const attemptOf = (row: Record<string, unknown>): AttemptRecord => ({
  attempt: Number(row.attempt),
  startedAt: String(row.started_at),
  status: integer(row.status),
  durationMs: integer(row.duration_ms),
  error: text(row.error),
})

/** The secrets that sign an attempt at `now`: the endpoint's, then the replaced one until it expires. */
export const signingSecrets = (row: Record<string, unknown>, now: string): string[] => {
  const previous = text(row.previous_secret)
  const until = text(row.previous_secret_expires_at)
  return previous !== null && until !== null && until > now ? [String(row.secret), previous] : [String(row.secret)]
}

export const claimedOf = (row: Record<string, unknown>, now: string): ClaimedDelivery => ({
  id: String(row.id),
  webhookId: String(row.webhook_id),
  eventType: String(row.event_type) as WebhookEventType,
  body: String(row.body),
  attempts: Number(row.attempts),
  url: String(row.url),
  secrets: signingSecrets(row, now),
})

/** The listeners of `onRequested`, on this node. */
export function requestSignal(): { notify: () => void; listen: WebhookTable['onRequested'] } {
  const listeners = new Set<() => void>()
  return {
    notify: () => listeners.forEach((listener) => listener()),
    listen: (listener) => {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
}

export const ENDPOINT_COLUMNS = 'id, account_id, url, secret, created_at, failing_since, disabled_at, disabled_reason, previous_secret, previous_secret_expires_at'
export const DELIVERY_COLUMNS =
  'id, webhook_id, account_id, event_id, event_type, snapshot, change_count, status, attempts, created_at, next_attempt_at, last_attempt_at, last_status, last_error, delivered_at, on_request, redelivery_of'
export const ATTEMPT_COLUMNS = 'attempt, started_at, status, duration_ms, error'
/** What claimDue selects of a delivery and its endpoint (`d` and `w`). */
export const CLAIMED_COLUMNS = 'd.id, d.webhook_id, d.event_type, d.body, d.attempts, w.url, w.secret, w.previous_secret, w.previous_secret_expires_at'

/**
 * A delivery `d` that may be claimed at `now` (a placeholder, used four times): due and not claimed,
 * the first due of its endpoint, and of an endpoint with no attempt under way on any node. One
 * attempt per endpoint at a time: a receiver that hangs until the timeout holds up its own
 * deliveries only, never another endpoint's.
 */
export const claimable = (now: string) =>
  `d.status = 'pending' AND d.next_attempt_at <= ${now} AND (d.claimed_until IS NULL OR d.claimed_until < ${now})
   AND d.id = (SELECT e.id FROM webhook_deliveries e WHERE e.webhook_id = d.webhook_id AND e.status = 'pending' AND e.next_attempt_at <= ${now} ORDER BY e.next_attempt_at, e.id LIMIT 1)
   AND NOT EXISTS (SELECT 1 FROM webhook_deliveries o WHERE o.webhook_id = d.webhook_id AND o.status = 'pending' AND o.claimed_until >= ${now})`

/** When the next pending delivery falls due: its next attempt, or the end of its claim if later (both engines). */
export const NEXT_DUE = `SELECT min(CASE WHEN claimed_until > next_attempt_at THEN claimed_until ELSE next_attempt_at END) AS next FROM webhook_deliveries WHERE status = 'pending'`

const CLAIMABLE = claimable('?')

/** The DuckDB tables, created (or given the columns they lack) if they are missing. */
export async function duckdbWebhookTable(db: Database): Promise<WebhookTable> {
  for (const statement of SCHEMA) await db.run(statement)
  if ((await db.rows('SELECT 1 FROM webhook_deliveries WHERE event_id IS NULL LIMIT 1')).length) {
    await db.transaction(async (tx) => {
      for (const statement of LEGACY_DELIVERIES) await tx.run(statement)
    })
  }
  const requested = requestSignal()
  const lastAnnounced = async (rows: Database['rows'] = db.rows.bind(db)) => text((await rows('SELECT max(snapshot) AS last FROM webhook_announcements'))[0]?.last)
  const deliveryRow = (d: NewDelivery, snapshot: string, at: string, request: { redeliveryOf: string | null } | null) => [
    d.id, d.webhookId, d.accountId, snapshot, BigInt(d.changeCount), d.body, 'pending', 0n, at, at, null, null, null, null, null,
    d.eventId, d.eventType, request !== null, request?.redeliveryOf ?? null,
  ]
  const recordAttempt = (tx: Pick<Database, 'run'>, deliveryId: string, timing: AttemptTiming, status: number | null, error: string | null) =>
    tx.run('INSERT INTO webhook_attempts VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING', [deliveryId, timing.attempt, timing.startedAt, status, timing.durationMs, error])
  return {
    insert: (e) => db.run(`INSERT INTO webhooks (${ENDPOINT_COLUMNS}) VALUES (?, ?, ?, ?, ?, NULL, NULL, NULL, NULL, NULL)`, [e.id, e.accountId, e.url, e.secret, e.createdAt]),
    list: async (accountId) => (await db.rows(`SELECT ${ENDPOINT_COLUMNS} FROM webhooks WHERE account_id = ? ORDER BY created_at, id`, [accountId])).map(endpointOf),
    async update(accountId, id, changes) {
      const rotating = changes.secret !== undefined
      const rows = await db.transaction((tx) =>
        tx.rows(
          `UPDATE webhooks SET url = coalesce(?, url), secret = coalesce(?, secret),
             previous_secret = CASE WHEN ? THEN (CASE WHEN ? IS NULL THEN NULL ELSE secret END) ELSE previous_secret END,
             previous_secret_expires_at = CASE WHEN ? THEN ? ELSE previous_secret_expires_at END,
             disabled_at = CASE WHEN ? THEN NULL ELSE disabled_at END, disabled_reason = CASE WHEN ? THEN NULL ELSE disabled_reason END,
             failing_since = CASE WHEN ? THEN NULL ELSE failing_since END
           WHERE account_id = ? AND id = ? RETURNING ${ENDPOINT_COLUMNS}`,
          [
            changes.url ?? null, changes.secret ?? null,
            rotating, changes.previousSecretExpiresAt ?? null, rotating, changes.previousSecretExpiresAt ?? null,
            changes.enabled === true, changes.enabled === true, changes.enabled === true, accountId, id,
          ],
        ),
      )
      return rows.length ? endpointOf(rows[0]) : null
    },
    remove: (accountId, id) =>
      db.transaction(async (tx) => {
        const removed = await tx.rows('DELETE FROM webhooks WHERE account_id = ? AND id = ? RETURNING id', [accountId, id])
        if (removed.length) {
          await tx.run('DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE webhook_id = ?)', [id])
          await tx.run('DELETE FROM webhook_deliveries WHERE webhook_id = ?', [id])
        }
        return removed.length > 0
      }),
    active: async () => (await db.rows(`SELECT ${ENDPOINT_COLUMNS} FROM webhooks WHERE disabled_at IS NULL ORDER BY created_at, id`)).map(endpointOf),
    lastAnnounced: () => lastAnnounced(),
    announce: (plan) =>
      db.transaction(async (tx) => {
        const last = await lastAnnounced(tx.rows)
        if (last !== plan.after) return { kind: 'raced' } as const
        if (last !== null && plan.snapshot <= last) return { kind: 'not_newer', last } as const
        const seen = await tx.rows(`SELECT identity FROM webhook_announced_changes WHERE identity IN (SELECT unnest(from_json(?, '["VARCHAR"]')))`, [JSON.stringify(plan.candidates)])
        const announcedBefore = new Set(seen.map((row) => String(row.identity)))
        const fresh = new Set(plan.candidates.filter((identity) => !announcedBefore.has(identity)))
        const deliveries = plan.deliveries(fresh)
        await tx.run('INSERT INTO webhook_announcements VALUES (?, ?, ?)', [plan.snapshot, plan.at, fresh.size])
        await tx.append('webhook_announced_changes', [...fresh].map((identity) => [identity, plan.snapshot]))
        await tx.append('webhook_deliveries', deliveries.map((d) => deliveryRow(d, plan.snapshot, plan.at, null)))
        return { kind: 'announced', changes: fresh.size, deliveries: deliveries.length } as const
      }),
    async request(delivery) {
      await db.append('webhook_deliveries', [deliveryRow(delivery, delivery.snapshot, delivery.at, delivery)])
      requested.notify()
    },
    onRequested: requested.listen,
    async claimDue(now, until, limit) {
      // A read first: an idle server writes nothing to the file at each poll.
      const due = await db.rows(`SELECT 1 FROM webhook_deliveries d WHERE ${CLAIMABLE} LIMIT 1`, [now, now, now, now])
      if (!due.length) return []
      return db.transaction(async (tx) => {
        const claimed = await tx.rows(
          `UPDATE webhook_deliveries SET claimed_until = ?, attempts = attempts + 1, last_attempt_at = ?
           WHERE id IN (SELECT d.id FROM webhook_deliveries d WHERE ${CLAIMABLE} ORDER BY d.next_attempt_at, d.id LIMIT ?)
           RETURNING id`,
          [until, now, now, now, now, now, limit],
        )
        if (!claimed.length) return []
        // A replaced secret past its overlap is dropped here, where the store is written anyway.
        await tx.run('UPDATE webhooks SET previous_secret = NULL, previous_secret_expires_at = NULL WHERE previous_secret_expires_at <= ?', [now])
        const rows = await tx.rows(
          `SELECT ${CLAIMED_COLUMNS} FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
           WHERE d.id IN (SELECT unnest(from_json(?, '["VARCHAR"]'))) ORDER BY d.next_attempt_at, d.id`,
          [JSON.stringify(claimed.map((row) => String(row.id)))],
        )
        return rows.map((row) => claimedOf(row, now))
      })
    },
    nextDue: async () => text((await db.rows(NEXT_DUE))[0]?.next),
    delivered: (deliveryId, webhookId, at, status, timing) =>
      db.transaction(async (tx) => {
        const updated = await tx.rows(
          `UPDATE webhook_deliveries SET status = 'delivered', delivered_at = ?, last_status = ?, last_error = NULL, next_attempt_at = NULL, claimed_until = NULL WHERE id = ? RETURNING on_request`,
          [at, status, deliveryId],
        )
        if (!updated.length) return
        await recordAttempt(tx, deliveryId, timing, status, null)
        if (updated[0]!.on_request !== true) await tx.run('UPDATE webhooks SET failing_since = NULL WHERE id = ?', [webhookId])
      }),
    failed: (a) =>
      db.transaction(async (tx) => {
        const [delivery] = await tx.rows('SELECT on_request FROM webhook_deliveries WHERE id = ?', [a.deliveryId])
        if (!delivery) return false
        const onRequest = delivery.on_request === true
        await tx.run(
          `UPDATE webhook_deliveries SET last_status = ?, last_error = ?, claimed_until = NULL,
             next_attempt_at = CASE WHEN on_request THEN NULL ELSE ? END, status = CASE WHEN on_request THEN 'failed' ELSE status END
           WHERE id = ? AND status = 'pending'`,
          [a.status, a.error, a.nextAttemptAt, a.deliveryId],
        )
        await recordAttempt(tx, a.deliveryId, a.timing, a.status, a.error)
        if (onRequest) return false
        const disabled = await tx.rows(
          `UPDATE webhooks SET failing_since = coalesce(failing_since, ?),
             disabled_at = CASE WHEN coalesce(failing_since, ?) <= ? THEN ? ELSE NULL END,
             disabled_reason = CASE WHEN coalesce(failing_since, ?) <= ? THEN ? ELSE NULL END
           WHERE id = ? AND disabled_at IS NULL RETURNING disabled_at`,
          [a.at, a.at, a.disableIfFailingSince, a.at, a.at, a.disableIfFailingSince, a.disabledReason, a.webhookId],
        )
        if (disabled[0]?.disabled_at == null) return false
        await tx.run(`UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, claimed_until = NULL WHERE webhook_id = ? AND status = 'pending'`, [a.webhookId])
        return true
      }),
    deliveries: async (accountId, webhookId, limit) =>
      (await db.rows(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE account_id = ? AND webhook_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`, [accountId, webhookId, limit])).map(
        deliveryOf,
      ),
    async delivery(accountId, webhookId, deliveryId) {
      const [row] = await db.rows(`SELECT ${DELIVERY_COLUMNS}, body FROM webhook_deliveries WHERE account_id = ? AND webhook_id = ? AND id = ?`, [accountId, webhookId, deliveryId])
      if (!row) return null
      const attempts = await db.rows(`SELECT ${ATTEMPT_COLUMNS} FROM webhook_attempts WHERE delivery_id = ? ORDER BY attempt`, [deliveryId])
      return { ...deliveryOf(row), body: String(row.body), attemptLog: attempts.map(attemptOf) }
    },
  }
}
