// A webhook receiver on loopback for tests: records every request (headers and body as received)
// and answers each from a script — a status, or `hang` (no answer, until the receiver closes) —
// then 200 once the script is used up.
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export type Received = { headers: http.IncomingHttpHeaders; body: string }
export type Answer = number | 'hang'

export type Receiver = {
  url: string
  received: Received[]
  /** answers for the next requests, in order */
  script: (...answers: Answer[]) => void
  /** resolves once `count` requests in all have arrived */
  arrived: (count: number) => Promise<void>
  close: () => Promise<void>
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = []
  const answers: Answer[] = []
  const waiting: { count: number; resolve: () => void }[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
      for (const wait of waiting.filter((w) => received.length >= w.count)) {
        waiting.splice(waiting.indexOf(wait), 1)
        wait.resolve()
      }
      const answer = answers.shift() ?? 200
      if (answer !== 'hang') res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : 'not now')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks/taxatlas`,
    received,
    script: (...next) => void answers.push(...next),
    arrived: (count) => (received.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ count, resolve }))),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
