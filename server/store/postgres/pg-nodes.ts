// The server nodes alive on one database: each writes its row of `nodes` every `pollMs` and counts
// the rows seen within the last three intervals. The count sets each node's share of a key's
// request rate (access/rate-limiter.ts); a node that stops (or is killed) drops out of everyone's
// count within three intervals, one that starts is counted by the others within one.
import { hostname } from 'node:os'
import { randomBytes } from 'node:crypto'
import type { Logger } from '../../base/logger.ts'
import type { PgDatabase } from './pg-database.ts'

export type NodeRegistry = { readonly id: string; live(): number; stop(): Promise<void> }

/** Rows not seen for this long are removed by whichever node notices. */
const FORGET_AFTER = '1 hour'

export async function joinNodes(db: PgDatabase, options: { pollMs: number; logger: Logger }): Promise<NodeRegistry> {
  const id = `node_${randomBytes(6).toString('hex')}`
  let live = 1
  const beat = async () => {
    const rows = await db.rows(
      `WITH seen AS (
         INSERT INTO nodes (id, host, pid, started_at, seen_at) VALUES ($1, $2, $3, now(), now())
         ON CONFLICT (id) DO UPDATE SET seen_at = now())
       SELECT count(*)::integer AS live FROM nodes WHERE id <> $1 AND seen_at > now() - make_interval(secs => $4::double precision / 1000)`,
      [id, hostname(), process.pid, 3 * options.pollMs],
    )
    live = 1 + Number(rows[0].live)
    await db.run(`DELETE FROM nodes WHERE seen_at < now() - interval '${FORGET_AFTER}'`)
  }
  await beat()
  let failing = false
  const timer = setInterval(() => {
    beat().then(
      () => (failing = false),
      (error: Error) => {
        if (!failing) options.logger.warn('store_heartbeat_failed', { reason: error.message })
        failing = true
      },
    )
  }, options.pollMs)
  timer.unref()
  return {
    id,
    live: () => live,
    stop: async () => {
      clearInterval(timer)
      await db.run('DELETE FROM nodes WHERE id = $1', [id]).catch(() => undefined)
    },
  }
}
