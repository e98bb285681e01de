// Closing a listener at shutdown, as the clients of a node taken out of a balancer expect: it stops
// accepting connections, closes its idle keep-alive connections at once, and answers every request
// it accepted (one under way, or one arriving on a connection still open) with `Connection: close`,
// so the client sends its next request elsewhere rather than to a server about to go. The listener
// is closed once its last connection is. Closing the listener alone left keep-alive connections
// taking new requests until the grace period ended, and then cut whatever was under way.
// Connections still open when the grace period ends are cut, and logged.
import type { Server, ServerResponse } from 'node:http'
import type { Logger } from '../base/logger.ts'

/** Closes the listener, giving what it accepted up to `graceMs` to be answered. */
export type CloseListener = (graceMs: number) => Promise<void>

/** Follows the requests under way on `server` (named `listener` in the log) so it can be closed so. */
export function closeWhenDrained(server: Server, listener: string, logger: Logger): CloseListener {
  let closing = false
  const underWay = new Set<ServerResponse>()
  server.prependListener('request', (_req, res: ServerResponse) => {
    if (closing) res.shouldKeepAlive = false
    underWay.add(res)
    res.once('close', () => underWay.delete(res))
  })
  return (graceMs) =>
    new Promise((resolve) => {
      closing = true
      for (const res of underWay) {
        if (!res.headersSent) res.shouldKeepAlive = false
        // Its headers promised keep-alive already: its connection is closed once it is answered.
        else res.once('finish', () => setImmediate(() => server.closeIdleConnections()))
      }
      const cut = setTimeout(() => {
        if (underWay.size > 0) logger.warn('shutdown_connections_cut', { listener, requests_under_way: underWay.size, grace_ms: graceMs })
        server.closeAllConnections()
      }, graceMs)
      cut.unref()
      server.close(() => {
        clearTimeout(cut)
        resolve()
      })
      server.closeIdleConnections()
    })
}
