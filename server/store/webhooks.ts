// Webhook endpoints, the deliveries made to them, and what has been announced: the records behind
// /v1/webhooks (server/webhooks/ decides what to send and when). Times are ISO 8601 UTC text of
// one length, so they compare as text in both engines. The tables: DuckDB below, PostgreSQL in
// postgres/pg-webhooks.ts.
import type { Database } from './database.ts'

const SCHEMA = [
  // The secret signs deliveries, so it is kept as given (a key is kept only as its hash).
  `CREATE TABLE IF NOT EXISTS webhooks (
     id VARCHAR PRIMARY KEY, account_id VARCHAR NOT NULL, url VARCHAR NOT NULL, secret VARCHAR NOT NULL,
     created_at VARCHAR NOT NULL, failing_since VARCHAR, disabled_at VARCHAR, disabled_reason VARCHAR)`,
  `CREATE TABLE IF NOT EXISTS webhook_deliveries (
     id VARCHAR PRIMARY KEY, webhook_id VARCHAR NOT NULL, account_id VARCHAR NOT NULL, snapshot VARCHAR NOT NULL,
     change_count BIGINT NOT NULL, body VARCHAR NOT NULL, status VARCHAR NOT NULL, attempts BIGINT NOT NULL,
     created_at VARCHAR NOT NULL, next_attempt_at VARCHAR, claimed_until VARCHAR, last_attempt_at VARCHAR,
     last_status BIGINT, last_error VARCHAR, delivered_at VARCHAR)`,
  // One row per snapshot whose new changes were announced (the first one served: none, a baseline).
  `CREATE TABLE IF NOT EXISTS webhook_announcements (snapshot VARCHAR PRIMARY KEY, announced_at VARCHAR NOT NULL, change_count BIGINT NOT NULL)`,
  // Every change announced, by identity: never announced again, whichever snapshot holds it next.
  `CREATE TABLE IF NOT EXISTS webhook_announced_changes (identity VARCHAR PRIMARY KEY, snapshot VARCHAR NOT NULL)`,
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
}

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]

export type DeliveryRecord = {
  id: string
  webhookId: string
  accountId: string
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
}

export type NewDelivery = { id: string; webhookId: string; accountId: string; changeCount: number; body: string }

/** A delivery claimed for one attempt: its body, and where and with what secret to send it now. */
export type ClaimedDelivery = { id: string; webhookId: string; body: string; attempts: number; url: string; secret: string }

export type EndpointChanges = { url?: string; secret?: string; enabled?: boolean }

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
  /**
   * up to `limit` pending deliveries due at `now` and not claimed, each claimed until `until` with
   * its attempt counted; at most one per endpoint, and none of an endpoint with an attempt under way
   */
  claimDue(now: string, until: string, limit: number): Promise<ClaimedDelivery[]>
  /** when the next pending delivery falls due (its next attempt, or the end of its claim), null when none is pending */
  nextDue(): Promise<string | null>
  delivered(deliveryId: string, webhookId: string, at: string, status: number): Promise<void>
  /** records a failed attempt; true when it disabled the endpoint (its pending deliveries are then failed) */
  failed(attempt: FailedAttempt): Promise<boolean>
  /** the endpoint's deliveries, newest first */
  deliveries(accountId: string, webhookId: string, limit: number): Promise<DeliveryRecord[]>
}

const text = (value: unknown) => (value === null || value === undefined ? null : String(value))

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
})

/** A delivery record from a row of either engine's `webhook_deliveries` table. */
export const deliveryOf = (row: Record<string, unknown>): DeliveryRecord => ({
  id: String(row.id),
  webhookId: String(row.webhook_id),
  accountId: String(row.account_id),
  snapshot: String(row.snapshot),
  changeCount: Number(row.change_count),
  status: String(row.status) as DeliveryStatus,
  attempts: Number(row.attempts),
  createdAt: String(row.created_at),
  nextAttemptAt: text(row.next_attempt_at),
  lastAttemptAt: text(row.last_attempt_at),
  lastStatus: row.last_status === null ? null : Number(row.last_status),
  lastError: text(row.last_error),
  deliveredAt: text(row.delivered_at),
})

export const claimedOf = (row: Record<string, unknown>): ClaimedDelivery => ({
  id: String(row.id),
  webhookId: String(row.webhook_id),
  body: String(row.body),
  attempts: Number(row.attempts),
  url: String(row.url),
  secret: String(row.secret),
})

export const ENDPOINT_COLUMNS = 'id, account_id, url, secret, created_at, failing_since, disabled_at, disabled_reason'
export const DELIVERY_COLUMNS =
  'id, webhook_id, account_id, snapshot, change_count, status, attempts, created_at, next_attempt_at, last_attempt_at, last_status, last_error, delivered_at'

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

/** The DuckDB tables, created if they are missing. */
export async function duckdbWebhookTable(db: Database): Promise<WebhookTable> {
  for (const statement of SCHEMA) await db.run(statement)
  const lastAnnounced = async (rows: Database['rows'] = db.rows.bind(db)) => text((await rows('SELECT max(snapshot) AS last FROM webhook_announcements'))[0]?.last)
  return {
    insert: (e) => db.run(`INSERT INTO webhooks (${ENDPOINT_COLUMNS}) VALUES (?, ?, ?, ?, ?, NULL, NULL, NULL)`, [e.id, e.accountId, e.url, e.secret, e.createdAt]),
    list: async (accountId) => (await db.rows(`SELECT ${ENDPOINT_COLUMNS} FROM webhooks WHERE account_id = ? ORDER BY created_at, id`, [accountId])).map(endpointOf),
    async update(accountId, id, changes) {
      const rows = await db.transaction((tx) =>
        tx.rows(
          `UPDATE webhooks SET url = coalesce(?, url), secret = coalesce(?, secret),
             disabled_at = CASE WHEN ? THEN NULL ELSE disabled_at END, disabled_reason = CASE WHEN ? THEN NULL ELSE disabled_reason END,
             failing_since = CASE WHEN ? THEN NULL ELSE failing_since END
           WHERE account_id = ? AND id = ? RETURNING ${ENDPOINT_COLUMNS}`,
          [changes.url ?? null, changes.secret ?? null, changes.enabled === true, changes.enabled === true, changes.enabled === true, accountId, id],
        ),
      )
      return rows.length ? endpointOf(rows[0]) : null
    },
    remove: (accountId, id) =>
      db.transaction(async (tx) => {
        const removed = await tx.rows('DELETE FROM webhooks WHERE account_id = ? AND id = ? RETURNING id', [accountId, id])
        if (removed.length) await tx.run('DELETE FROM webhook_deliveries WHERE webhook_id = ?', [id])
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
        await tx.append(
          'webhook_deliveries',
          deliveries.map((d) => [d.id, d.webhookId, d.accountId, plan.snapshot, BigInt(d.changeCount), d.body, 'pending', 0n, plan.at, plan.at, null, null, null, null, null]),
        )
        return { kind: 'announced', changes: fresh.size, deliveries: deliveries.length } as const
      }),
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
        const rows = await tx.rows(
          `SELECT d.id, d.webhook_id, d.body, d.attempts, w.url, w.secret FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
           WHERE d.id IN (SELECT unnest(from_json(?, '["VARCHAR"]'))) ORDER BY d.next_attempt_at, d.id`,
          [JSON.stringify(claimed.map((row) => String(row.id)))],
        )
        return rows.map(claimedOf)
      })
    },
    nextDue: async () => text((await db.rows(NEXT_DUE))[0]?.next),
    delivered: (deliveryId, webhookId, at, status) =>
      db.transaction(async (tx) => {
        await tx.run(
          `UPDATE webhook_deliveries SET status = 'delivered', delivered_at = ?, last_status = ?, last_error = NULL, next_attempt_at = NULL, claimed_until = NULL WHERE id = ?`,
          [at, status, deliveryId],
        )
        await tx.run('UPDATE webhooks SET failing_since = NULL WHERE id = ?', [webhookId])
      }),
    failed: (a) =>
      db.transaction(async (tx) => {
        await tx.run(`UPDATE webhook_deliveries SET last_status = ?, last_error = ?, next_attempt_at = ?, claimed_until = NULL WHERE id = ? AND status = 'pending'`, [
          a.status,
          a.error,
          a.nextAttemptAt,
          a.deliveryId,
        ])
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
  }
}
