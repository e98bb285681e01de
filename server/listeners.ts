// The listen step of start-up: the public listener and the loopback admin listener, bound in that
// order, each guarded as every request is (a missing Host, a body too slow, the connection cap, a
// connection closed after its last response). A port that cannot be bound stops start-up with
// nothing left listening. The admin listener answers 503 until the store is open and it is given
// its app (`serveAdmin`).
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Logger } from './base/logger.ts'
import { limitBodyTime } from './http/body-time.ts'
import { answerRefusals, requireHost } from './http/client-error.ts'
import { capConnectionsPerClient } from './http/connection-cap.ts'
import { closeAfterClient } from './http/lingering-close.ts'
import type { ServerSettings } from './settings.ts'

// requireHostHeader: a request without Host is answered by requireHost in the envelope, not by
// Node's bare 400. requestTimeout: Node's would cut a streamed backfill still making progress
// (http/body-time.ts has the limits instead); headersTimeout would follow it down to 0 (off) if
// not set, and stays at Node's 60 s.
const LISTENER_OPTIONS: http.ServerOptions = { requireHostHeader: false, requestTimeout: 0, headersTimeout: 60_000 }
// How long a connection closed after its last response keeps reading what the client still sends.
const LINGER_MS = 2_000

export type Listeners = {
  readonly url: string
  readonly adminUrl: string
  /** Hands the admin listener its app, in place of the 503 it answers until the store is open. */
  serveAdmin(handler: http.RequestListener): void
  /** Stops accepting on the public port; settles once its requests in flight are done (or cut at the shutdown timeout). */
  closePublic(): Promise<void>
  closeAdmin(): Promise<void>
  /** Closes both at once: start-up failed after they were bound. */
  abort(): Promise<void>
}

export type ListenerSettings = Pick<ServerSettings, 'port' | 'host' | 'adminPort' | 'maxConnectionsPerClient' | 'requestTimeoutMs' | 'shutdownTimeoutMs'>

/** Every request of either listener goes through these guards first. */
export const guardedBy = (settings: Pick<ServerSettings, 'requestTimeoutMs'>, logger: Logger) => (listener: http.RequestListener) =>
  requireHost(limitBodyTime(listener, settings.requestTimeoutMs), logger)

/**
 * Binds the public port with `app`, then the admin port on loopback answering `notYet`. Bound
 * now, so a taken admin port still stops start-up; nobody can call it before the store is open
 * anyway: its endpoint file (with the token) is written only then.
 */
export async function listenOn(settings: ListenerSettings, handlers: { app: http.RequestListener; notYet: http.RequestListener }, logger: Logger): Promise<Listeners> {
  const server = http.createServer(LISTENER_OPTIONS)
  const adminServer = http.createServer(LISTENER_OPTIONS)
  for (const listener of [server, adminServer]) {
    answerRefusals(listener, logger)
    closeAfterClient(listener, LINGER_MS)
  }
  capConnectionsPerClient(server, settings.maxConnectionsPerClient, logger)
  const guarded = guardedBy(settings, logger)
  server.on('request', guarded(handlers.app))
  let adminHandler = guarded(handlers.notYet)
  adminServer.on('request', adminHandler)
  try {
    await listen(server, settings.port, settings.host)
    await listen(adminServer, settings.adminPort, '127.0.0.1')
  } catch (error) {
    await closeListening([server, adminServer])
    throw error
  }
  return {
    url: urlOf(server),
    adminUrl: urlOf(adminServer),
    serveAdmin(handler) {
      const next = guarded(handler)
      adminServer.off('request', adminHandler).on('request', next)
      adminHandler = next
    },
    closePublic: () => closeGracefully(server, settings.shutdownTimeoutMs),
    closeAdmin: () => closeGracefully(adminServer, settings.shutdownTimeoutMs),
    abort: () => closeListening([server, adminServer]),
  }
}

/** Closes at once those of `servers` that listen: start-up failed after binding them. */
async function closeListening(servers: http.Server[]): Promise<void> {
  await Promise.all(servers.map((s) => (s.listening ? closeGracefully(s, 0) : undefined)))
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
}

function urlOf(server: http.Server): string {
  const { address, port } = server.address() as AddressInfo
  return `http://${address.includes(':') ? `[${address}]` : address}:${port}`
}

/** Stops accepting; idle keep-alive sockets close now, busy ones after their response or the timeout. */
function closeGracefully(server: http.Server, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), timeoutMs)
    force.unref()
    server.close(() => {
      clearTimeout(force)
      resolve()
    })
    server.closeIdleConnections()
  })
}
