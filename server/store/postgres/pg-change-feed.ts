// How a node hears that accounts, keys or nexus lists changed on another node: LISTEN on one
// connection of its own (a notification arrives as soon as the change commits), and a poll every
// `pollMs` in case a notification is missed — while that connection is down, or between a drop
// and the reconnect. A key created or revoked anywhere is therefore in force on every node within
// milliseconds, and within pollMs (plus one read) at worst; likewise a replaced nexus list.
import pg from 'pg'
import type { Logger } from '../../base/logger.ts'
import type { StoreChanges } from '../store-engine.ts'

export const ACCOUNTS_CHANNEL = 'taxatlas_accounts'
/** its payload: the account whose nexus list was replaced */
export const REGISTRATIONS_CHANNEL = 'taxatlas_registrations'


const RECONNECT_MAX_MS = 5_000

export function listenForChanges(url: string, options: { pollMs: number; changed: StoreChanges; logger: Logger; name: string }): () => void {
  let stopped = false
  let client: pg.Client | null = null
  let failures = 0
  let reconnectTimer: NodeJS.Timeout | null = null

  const connect = async () => {
    if (stopped) return
    const next = new pg.Client({ connectionString: url, application_name: `${options.name} listener`, keepAlive: true, connectionTimeoutMillis: 3_000 })
    next.on('notification', (message) => {
      if (message.channel === ACCOUNTS_CHANNEL) options.changed.accounts()
      else if (message.channel === REGISTRATIONS_CHANNEL) options.changed.registrations(message.payload || null)
    })
    const dropped = (error?: Error) => {
      if (client !== next) return
      client = null
      next.end().catch(() => undefined)
      if (stopped) return
      options.logger.warn('store_listen_lost', { reason: error?.message ?? 'connection ended', fallback_poll_ms: options.pollMs })
      schedule()
    }
    next.on('error', dropped)
    next.on('end', () => dropped())
    try {
      await next.connect()
      await next.query(`LISTEN ${ACCOUNTS_CHANNEL}; LISTEN ${REGISTRATIONS_CHANNEL}`)
    } catch (error) {
      next.end().catch(() => undefined)
      failures++
      schedule()
      return
    }
    if (stopped) {
      await next.end().catch(() => undefined)
      return
    }
    client = next
    if (failures > 0) options.logger.info('store_listen_resumed', { after_failures: failures })
    failures = 0
    // Changes made while no connection listened were not heard of.
    everything()
  }
  const everything = () => {
    options.changed.accounts()
    options.changed.registrations(null)
  }
  const schedule = () => {
    if (stopped || reconnectTimer) return
    const delay = Math.min(RECONNECT_MAX_MS, 100 * 2 ** Math.min(failures, 6))
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null
      void connect()
    }, delay)
    reconnectTimer.unref()
  }

  void connect()
  const poll = setInterval(everything, options.pollMs)
  poll.unref()
  return () => {
    stopped = true
    clearInterval(poll)
    if (reconnectTimer) clearTimeout(reconnectTimer)
    const open = client
    client = null
    void open?.end().catch(() => undefined)
  }
}
