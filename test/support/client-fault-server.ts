// A scripted HTTP server on port 0 for the client tests: each request takes the next scripted
// answer (status, headers, body, delays) and is recorded with its headers and body. A request
// beyond the script is answered 418 UNEXPECTED_REQUEST, so an extra retry fails the test.
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export type ScriptedAnswer = {
  status: number
  headers?: Record<string, string>
  /** an object is sent as JSON; a string as is (malformed bodies) */
  body?: unknown
  /** wait before the status line */
  delayMs?: number
  /** send the headers, then wait this long before the body */
  bodyDelayMs?: number
  /** answer without reading the request body (default: read it all first) */
  skipRequestBody?: boolean
}

export type RecordedRequest = { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }

export type FaultServer = {
  url: string
  requests: RecordedRequest[]
  /** replaces the script and forgets the recorded requests */
  script: (...answers: ScriptedAnswer[]) => void
  close: () => Promise<void>
}

/** The taxatlas error envelope, as the real server writes it. */
export const errorEnvelope = (code: string, message: string, extra: Record<string, unknown> = {}) => ({
  error: { code, message, support_reference: `ref-${code.toLowerCase()}` },
  ...extra,
})

export async function startFaultServer(): Promise<FaultServer> {
  let answers: ScriptedAnswer[] = []
  const requests: RecordedRequest[] = []
  const server = http.createServer(async (req, res) => {
    const answer = answers.shift() ?? { status: 418, body: errorEnvelope('UNEXPECTED_REQUEST', `request ${requests.length + 1} was not scripted`) }
    const recorded: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: '' }
    requests.push(recorded)
    if (!answer.skipRequestBody) {
      const chunks: Buffer[] = []
      try {
        for await (const chunk of req) chunks.push(chunk as Buffer)
      } catch {
        return // the client went away mid-body
      }
      recorded.body = Buffer.concat(chunks).toString('utf8')
    }
    const timers: NodeJS.Timeout[] = []
    res.on('close', () => timers.forEach(clearTimeout))
    const later = (ms: number | undefined, step: () => void) => (ms ? timers.push(setTimeout(step, ms)) : step())
    const text = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body)
    later(answer.delayMs, () => {
      const json = typeof answer.body === 'object' && answer.body !== null
      res.writeHead(answer.status, { ...(json ? { 'Content-Type': 'application/json' } : {}), 'X-Request-Id': `req-${requests.length}`, ...answer.headers })
      if (answer.bodyDelayMs) res.flushHeaders()
      later(answer.bodyDelayMs, () => res.end(text))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script: (...next) => {
      answers = next
      requests.length = 0
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
