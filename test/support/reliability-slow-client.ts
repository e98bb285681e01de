// Slow clients: one that sends its headers a byte at a time and never ends them, one that sends
// complete headers and then its declared body a byte at a time, and any request sent piece by
// piece at a pace. Each resolves once the server closes the connection, with what the server
// answered and how long it held on.
import net from 'node:net'

export type SlowOutcome = { heldSeconds: number; status: number | null; answer: string }

export type SlowClient = { outcome: Promise<SlowOutcome>; stop: () => void }

/** Writes `head`, then `piece(i)` every `everyMs` (an empty piece writes nothing). */
export function pacedRequest(url: string, head: string, piece: (i: number) => string, everyMs: number): SlowClient {
  const { hostname, port } = new URL(url)
  const socket = net.connect({ host: hostname, port: Number(port) })
  const started = performance.now()
  let answer = ''
  let timer: NodeJS.Timeout | undefined
  socket.on('connect', () => {
    socket.write(head)
    let at = 0
    timer = setInterval(() => {
      const bytes = piece(at++)
      if (bytes && socket.writable) socket.write(bytes)
    }, everyMs)
  })
  socket.on('data', (chunk: Buffer) => void (answer += chunk.toString()))
  const outcome = new Promise<SlowOutcome>((resolve) => {
    socket.on('error', () => undefined)
    socket.on('close', () => {
      clearInterval(timer)
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]
      resolve({ heldSeconds: (performance.now() - started) / 1000, status: status ? Number(status) : null, answer })
    })
  })
  return { outcome, stop: () => socket.destroy() }
}

/** Headers that never end: a header value grows by one byte every `everyMs`. */
export const slowHeaders = (url: string, everyMs = 2_000): SlowClient => pacedRequest(url, 'GET /healthz HTTP/1.1\r\nHost: slow.test\r\nX-Slow: ', (i) => 'abcdefgh'[i % 8], everyMs)

/** Complete headers, then a 10,000-byte JSON body a byte every `everyMs`. */
export const slowBody = (url: string, key: string, everyMs = 2_000): SlowClient =>
  pacedRequest(
    url,
    `POST /v1/portability/orders HTTP/1.1\r\nHost: slow.test\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n{"a":"`,
    () => 'x',
    everyMs,
  )
