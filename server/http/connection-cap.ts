// A cap on the connections one client address (an IPv6 client's /64) holds open at once. Without it one client's idle
// connections use up the process's file descriptors, and every other client is refused with them.
// A connection over the cap is closed as soon as it is accepted, before anything is read from it;
// the client's other connections, and every other client, keep being served. Behind a reverse proxy
// every connection comes from the proxy's address: the cap is then raised above the proxy's
// connection pool or turned off (0), and left to the proxy (docs/operations.md).
import type { Server } from 'node:http'
import type { Socket } from 'node:net'
import { clientKeyOf } from '../base/client-address.ts'
import type { Logger } from '../base/logger.ts'

const RELOG_MS = 60_000

export function capConnectionsPerClient(server: Server, max: number, logger: Logger): void {
  if (max <= 0) return
  const open = new Map<string, number>()
  let refused = 0
  let loggedAt = -Infinity
  server.on('connection', (socket: Socket) => {
    const client = clientKeyOf(socket.remoteAddress ?? '')
    const held = open.get(client) ?? 0
    if (held >= max) {
      refused++
      const now = performance.now()
      if (now - loggedAt >= RELOG_MS) {
        logger.warn('client_connections_capped', { client, open: held, max, refused })
        loggedAt = now
        refused = 0
      }
      socket.destroy()
      return
    }
    open.set(client, held + 1)
    socket.once('close', () => {
      const left = open.get(client)! - 1
      if (left === 0) open.delete(client)
      else open.set(client, left)
    })
  })
}
