// Requests at a steady rate, one every 1/rate seconds whatever the answers do (an open loop), for
// latency at a given load. autocannon's rate limits send each second's share of a connection's
// requests together at the start of the second: the last of each burst waits for the others, and
// its p99 measures that queue instead of the server at a steady rate. Latency here runs from the
// moment a request was due, so an answer that holds up the ones after it counts in theirs too.
import { Agent, request } from 'undici'
import type { LoadOutcome } from './reliability-load.ts'

export type SteadyLoadOptions = {
  url: string
  paths: readonly string[]
  headers: Record<string, string>
  /** requests per second */
  rate: number
  seconds: number
  /** the most connections open at once */
  connections: number
}

export async function runSteadyLoad(options: SteadyLoadOptions): Promise<LoadOutcome> {
  const agent = new Agent({ connections: options.connections })
  const latencies: number[] = []
  const statusCodes: Record<string, number> = {}
  let errors = 0
  const started = performance.now()
  const total = Math.round(options.seconds * options.rate)
  const sent: Promise<void>[] = []
  try {
    for (let n = 0; n < total; n++) {
      const due = started + (n * 1000) / options.rate
      const wait = due - performance.now()
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
      const path = options.paths[n % options.paths.length]!
      sent.push(
        request(`${options.url}${path}`, { dispatcher: agent, headers: options.headers }).then(
          async (response) => {
            await response.body.arrayBuffer()
            latencies.push(performance.now() - due)
            statusCodes[response.statusCode] = (statusCodes[response.statusCode] ?? 0) + 1
          },
          () => void errors++,
        ),
      )
    }
    await Promise.all(sent)
  } finally {
    await agent.close()
  }
  const seconds = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  const at = (share: number) => (latencies.length ? Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * share))]! * 10) / 10 : 0)
  const non2xx = Object.entries(statusCodes).filter(([code]) => !code.startsWith('2')).reduce((sum, [, count]) => sum + count, 0)
  return { requests: latencies.length, requestsPerSecond: latencies.length / seconds, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: at(1), errors, non2xx, statusCodes, seconds }
}
