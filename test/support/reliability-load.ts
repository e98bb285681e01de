// autocannon for the soak and the lookup and order-tax benches: as fast as it goes, or at a fixed overall rate;
// for a time or a number of requests. Each connection cycles through its own slice of the paths,
// so together they cover them all.
import { createRequire } from 'node:module'

// autocannon ships no types; only what is used here is declared.
type AutocannonResult = {
  requests: { average: number; total: number }
  /** seconds the run lasted */
  duration: number
  latency: { p50: number; p99: number; max: number }
  errors: number
  timeouts: number
  non2xx: number
  statusCodeStats: Record<string, { count: number }>
}
type AutocannonClient = { setRequests(requests: LoadRequest[]): void }
type AutocannonInstance = PromiseLike<AutocannonResult> & { stop(): void }
type Autocannon = (options: {
  url: string
  connections: number
  duration?: number
  amount?: number
  overallRate?: number
  timeout?: number
  headers?: Record<string, string>
  setupClient?: (client: AutocannonClient) => void
}) => AutocannonInstance
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon

export type LoadOutcome = {
  requests: number
  requestsPerSecond: number
  p50Ms: number
  p99Ms: number
  maxMs: number
  /** connection errors and timeouts */
  errors: number
  non2xx: number
  statusCodes: Record<string, number>
  /** how long the run lasted */
  seconds: number
}

/** A request of the load: a path is a GET; a POST carries its JSON body (send content-type in `headers`). */
export type LoadRequest = { method: 'GET' | 'POST'; path: string; body?: string }
export type LoadPath = string | LoadRequest

export type LoadOptions = {
  url: string
  paths: readonly LoadPath[]
  headers: Record<string, string>
  /** how long to run, or how many requests to send (`amount`) */
  seconds?: number
  amount?: number
  connections: number
  /** requests per second over all connections; unset = as fast as the server answers */
  overallRate?: number
}

export async function runLoad(options: LoadOptions): Promise<LoadOutcome> {
  const slices = Array.from({ length: options.connections }, (_, c) => options.paths.filter((_, i) => i % options.connections === c)).filter((s) => s.length > 0)
  let next = 0
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    ...(options.amount === undefined ? { duration: options.seconds } : { amount: options.amount }),
    overallRate: options.overallRate,
    timeout: 10,
    headers: options.headers,
    setupClient: (client) => client.setRequests(slices[next++ % slices.length].map((path) => (typeof path === 'string' ? { method: 'GET', path } : path))),
  })
  return {
    requests: result.requests.total,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count])),
    seconds: result.duration,
  }
}
