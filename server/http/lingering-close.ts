// Closing a connection after its last response (Connection: close). Node closes the socket as soon
// as the response is handed to the kernel; if bytes of the request are still arriving then (a body
// the route did not read), the kernel answers them with a reset, and a reset discards whatever part
// of the response the client had not received yet: a large answer (openapi.json) to a request that
// came with a large body arrived cut short. Here the connection is half-closed instead: the
// response is followed by a FIN, what the client still sends is read and discarded, and the socket
// closes when the client closes its side, or after `graceMs` at most.
import type { Server } from 'node:http'
import type { Socket } from 'node:net'

/** On every connection of `server`, the close after the last response waits for the client. */
export function closeAfterClient(server: Server, graceMs: number): void {
  server.on('connection', (socket: Socket) => {
    // Node's server calls destroySoon after a response marked last (its only caller here).
    socket.destroySoon = function lingeringClose(this: Socket) {
      if (this.writable) this.end()
      const timer = setTimeout(() => this.destroy(), graceMs)
      timer.unref()
      this.once('close', () => clearTimeout(timer))
    }
  })
}
