// Webhook endpoints, deliveries and announcements in PostgreSQL (the DuckDB twin and the types are
// in ../webhooks.ts). Several nodes share these tables: an announcement is made under a lock by one
// node, which finds the snapshot already announced when another was first; a delivery is claimed
// for one attempt with FOR UPDATE SKIP LOCKED, so no two nodes send it at once.
import {
  ATTEMPT_COLUMNS,
  attemptOf,
  CLAIMED_COLUMNS,
  claimable,
  claimedOf,
  DELIVERY_COLUMNS,
  deliveryOf,
  ENDPOINT_COLUMNS,
  endpointOf,
  NEXT_DUE,
  requestSignal,
  type AttemptTiming,
  type NewDelivery,
  type WebhookTable,
} from '../webhooks.ts'
import type { PgDatabase, PgStatements } from './pg-database.ts'

/** Any constant: the lock an announcement takes. */
const ANNOUNCE_LOCK = 7_463_771_020

const lastAnnounced = async (db: PgStatements) => {
  const last = (await db.rows('SELECT max(snapshot) AS last FROM webhook_announcements'))[0]?.last
  return last === null || last === undefined ? null : String(last)
}

/** Inserts deliveries, all made at `at` for `snapshot`, due at once. */
const insertDeliveries = (db: PgStatements, deliveries: readonly NewDelivery[], snapshot: string, at: string, request: { redeliveryOf: string | null } | null) =>
  db.run(
    `INSERT INTO webhook_deliveries (id, webhook_id, account_id, snapshot, change_count, body, status, attempts, created_at, next_attempt_at, event_id, event_type, on_request, redelivery_of)
     SELECT id, webhook_id, account_id, $5, change_count, body, 'pending', 0, $6, $6, event_id, event_type, $10::boolean, $11::text
     FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $7::text[], $8::text[], $9::text[]) AS d (id, webhook_id, account_id, change_count, body, event_id, event_type)`,
    [
      deliveries.map((d) => d.id),
      deliveries.map((d) => d.webhookId),
      deliveries.map((d) => d.accountId),
      deliveries.map((d) => d.changeCount),
      snapshot,
      at,
      deliveries.map((d) => d.body),
      deliveries.map((d) => d.eventId),
      deliveries.map((d) => d.eventType),
      request !== null,
      request?.redeliveryOf ?? null,
    ],
  )

const recordAttempt = (db: PgStatements, deliveryId: string, timing: AttemptTiming, status: number | null, error: string | null) =>
  db.run('INSERT INTO webhook_attempts (delivery_id, attempt, started_at, status, duration_ms, error) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING', [
    deliveryId,
    timing.attempt,
    timing.startedAt,
    status,
    timing.durationMs,
    error,
  ])

export function pgWebhookTable(db: PgDatabase): WebhookTable {
  const requested = requestSignal()
  return {
    insert: async (e) => {
      await db.run(`INSERT INTO webhooks (${ENDPOINT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, NULL, NULL, NULL, NULL, NULL)`, [e.id, e.accountId, e.url, e.secret, e.createdAt])
    },
    list: async (accountId) => (await db.rows(`SELECT ${ENDPOINT_COLUMNS} FROM webhooks WHERE account_id = $1 ORDER BY created_at, id`, [accountId])).map(endpointOf),
    async update(accountId, id, changes) {
      const enable = changes.enabled === true
      const rotating = changes.secret !== undefined
      const rows = await db.rows(
        `UPDATE webhooks SET url = coalesce($1, url), secret = coalesce($2, secret),
           previous_secret = CASE WHEN $6 THEN (CASE WHEN $7::text IS NULL THEN NULL ELSE secret END) ELSE previous_secret END,
           previous_secret_expires_at = CASE WHEN $6 THEN $7 ELSE previous_secret_expires_at END,
           disabled_at = CASE WHEN $3 THEN NULL ELSE disabled_at END, disabled_reason = CASE WHEN $3 THEN NULL ELSE disabled_reason END,
           failing_since = CASE WHEN $3 THEN NULL ELSE failing_since END
         WHERE account_id = $4 AND id = $5 RETURNING ${ENDPOINT_COLUMNS}`,
        [changes.url ?? null, changes.secret ?? null, enable, accountId, id, rotating, changes.previousSecretExpiresAt ?? null],
      )
      return rows.length ? endpointOf(rows[0]) : null
    },
    remove: (accountId, id) =>
      db.transaction(async (tx) => {
        const removed = await tx.rows('DELETE FROM webhooks WHERE account_id = $1 AND id = $2 RETURNING id', [accountId, id])
        if (removed.length) {
          await tx.run('DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE webhook_id = $1)', [id])
          await tx.run('DELETE FROM webhook_deliveries WHERE webhook_id = $1', [id])
        }
        return removed.length > 0
      }),
    active: async () => (await db.rows(`SELECT ${ENDPOINT_COLUMNS} FROM webhooks WHERE disabled_at IS NULL ORDER BY created_at, id`)).map(endpointOf),
    lastAnnounced: () => lastAnnounced(db),
    announce: (plan) =>
      db.transaction(async (tx) => {
        await tx.run('SELECT pg_advisory_xact_lock($1)', [ANNOUNCE_LOCK])
        const last = await lastAnnounced(tx)
        if (last !== plan.after) return { kind: 'raced' } as const
        if (last !== null && plan.snapshot <= last) return { kind: 'not_newer', last } as const
        const seen = await tx.rows('SELECT identity FROM webhook_announced_changes WHERE identity = ANY($1::text[])', [plan.candidates])
        const announcedBefore = new Set(seen.map((row) => String(row.identity)))
        const fresh = new Set(plan.candidates.filter((identity) => !announcedBefore.has(identity)))
        const deliveries = plan.deliveries(fresh)
        await tx.run('INSERT INTO webhook_announcements (snapshot, announced_at, change_count) VALUES ($1, $2, $3)', [plan.snapshot, plan.at, fresh.size])
        await tx.run('INSERT INTO webhook_announced_changes (identity, snapshot) SELECT unnest($1::text[]), $2', [[...fresh], plan.snapshot])
        await insertDeliveries(tx, deliveries, plan.snapshot, plan.at, null)
        return { kind: 'announced', changes: fresh.size, deliveries: deliveries.length } as const
      }),
    async request(delivery) {
      await insertDeliveries(db, [delivery], delivery.snapshot, delivery.at, delivery)
      requested.notify()
    },
    onRequested: requested.listen,
    async claimDue(now, until, limit) {
      const claimed = await db.rows(
        `UPDATE webhook_deliveries d SET claimed_until = $1, attempts = d.attempts + 1, last_attempt_at = $2
         FROM webhooks w
         WHERE w.id = d.webhook_id AND d.id IN (
           SELECT d.id FROM webhook_deliveries d WHERE ${claimable('$2')}
           ORDER BY d.next_attempt_at, d.id LIMIT $3 FOR UPDATE OF d SKIP LOCKED)
         RETURNING ${CLAIMED_COLUMNS}`,
        [until, now, limit],
      )
      // A replaced secret past its overlap is dropped here, where the store is written anyway.
      if (claimed.length) await db.run('UPDATE webhooks SET previous_secret = NULL, previous_secret_expires_at = NULL WHERE previous_secret_expires_at <= $1', [now])
      return claimed.map((row) => claimedOf(row, now))
    },
    nextDue: async () => {
      const next = (await db.rows(NEXT_DUE))[0]?.next
      return next === null || next === undefined ? null : String(next)
    },
    delivered: (deliveryId, webhookId, at, status, timing) =>
      db.transaction(async (tx) => {
        const updated = await tx.rows(
          `UPDATE webhook_deliveries SET status = 'delivered', delivered_at = $1, last_status = $2, last_error = NULL, next_attempt_at = NULL, claimed_until = NULL WHERE id = $3 RETURNING on_request`,
          [at, status, deliveryId],
        )
        if (!updated.length) return
        await recordAttempt(tx, deliveryId, timing, status, null)
        if (updated[0]!.on_request !== true) await tx.run('UPDATE webhooks SET failing_since = NULL WHERE id = $1', [webhookId])
      }),
    failed: (a) =>
      db.transaction(async (tx) => {
        const [delivery] = await tx.rows('SELECT on_request FROM webhook_deliveries WHERE id = $1 FOR UPDATE', [a.deliveryId])
        if (!delivery) return false
        await tx.run(
          `UPDATE webhook_deliveries SET last_status = $1, last_error = $2, claimed_until = NULL,
             next_attempt_at = CASE WHEN on_request THEN NULL ELSE $3 END, status = CASE WHEN on_request THEN 'failed' ELSE status END
           WHERE id = $4 AND status = 'pending'`,
          [a.status, a.error, a.nextAttemptAt, a.deliveryId],
        )
        await recordAttempt(tx, a.deliveryId, a.timing, a.status, a.error)
        if (delivery.on_request === true) return false
        const disabled = await tx.rows(
          `UPDATE webhooks SET failing_since = coalesce(failing_since, $1),
             disabled_at = CASE WHEN coalesce(failing_since, $1) <= $2 THEN $1 END,
             disabled_reason = CASE WHEN coalesce(failing_since, $1) <= $2 THEN $3 END
           WHERE id = $4 AND disabled_at IS NULL RETURNING disabled_at`,
          [a.at, a.disableIfFailingSince, a.disabledReason, a.webhookId],
        )
        if (disabled[0]?.disabled_at == null) return false
        await tx.run(`UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, claimed_until = NULL WHERE webhook_id = $1 AND status = 'pending'`, [a.webhookId])
        return true
      }),
    deliveries: async (accountId, webhookId, limit) =>
      (await db.rows(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE account_id = $1 AND webhook_id = $2 ORDER BY created_at DESC, id DESC LIMIT $3`, [accountId, webhookId, limit])).map(
        deliveryOf,
      ),
    async delivery(accountId, webhookId, deliveryId) {
      const [row] = await db.rows(`SELECT ${DELIVERY_COLUMNS}, body FROM webhook_deliveries WHERE account_id = $1 AND webhook_id = $2 AND id = $3`, [accountId, webhookId, deliveryId])
      if (!row) return null
      const attempts = await db.rows(`SELECT ${ATTEMPT_COLUMNS} FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt`, [deliveryId])
      return { ...deliveryOf(row), body: String(row.body), attemptLog: attempts.map(attemptOf) }
    },
  }
}
