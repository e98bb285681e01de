// The reference point of the lookup bench: a bare node:http server that answers every request
// with one canned JSON body, sized like a real lookup answer, so the ratio to it measures what
// the service itself costs per request. Runs as its own process, as the real server does:
//   BARE_BODY_BYTES=412 PORT=0 node --import tsx test/bench/bare-server.ts   (prints its port)
import http from 'node:http'
import type { AddressInfo } from 'node:net'

const bytes = Number(process.env.BARE_BODY_BYTES ?? 400)
const emptyBody = '{"filler":""}'
const body = Buffer.from(`{"filler":"${'x'.repeat(Math.max(0, bytes - emptyBody.length))}"}`)
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) }

const server = http.createServer((_req, res) => {
  res.writeHead(200, headers).end(body)
})
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`)
})
const stop = () => {
  server.closeAllConnections()
  server.close(() => process.exit(0))
}
process.once('SIGTERM', stop)
// The bench holds stdin open; its end means the bench is gone, even if it was killed outright.
process.stdin.once('end', stop).resume()
