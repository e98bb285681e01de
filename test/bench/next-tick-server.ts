// The server of the nextTick-class line of `make bench`: the bare node:http server's canned answer,
// with the class of Node's nextTick entries kept (KEEP_NEXT_TICK_CLASS=1, as the service does) or
// not, and full garbage collections run on the bench's word between loads, when no entry is alive,
// as an idle moment of a server runs them. Started with --expose-gc; prints its port.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { keepNextTickClass } from '../../server/http/next-tick-class.ts'

if (process.env.KEEP_NEXT_TICK_CLASS === '1') keepNextTickClass()
const body = Buffer.from(`{"filler":"${'x'.repeat(400)}"}`)
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) }
const server = http.createServer((_req, res) => {
  res.writeHead(200, headers).end(body)
})
server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`))

const collect = globalThis.gc
if (!collect) throw new Error('start the next-tick server with --expose-gc')
process.on('message', () => {
  setTimeout(() => {
    collect()
    process.send!('collected')
  }, 50)
})
const stop = () => {
  server.closeAllConnections()
  server.close(() => process.exit(0))
}
process.once('SIGTERM', stop)
process.once('disconnect', stop)
