// The per-request shortcuts of the request path give the results of what they replace: the route
// dispatch (Polka's own handler), query parsing (node:querystring), the access-log line
// (JSON.stringify), batched log writes (nothing lost, nothing reordered), the header table
// (res.setHeader), the month span (monthOf and the next month's start), the rate limiter, and the
// memoized date and string decoding of the indexes.
import { execa } from 'execa'
import crypto, { createHash } from 'node:crypto'
import http, { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Socket } from 'node:net'
import { parse as querystringParse } from 'node:querystring'
import { isDeepStrictEqual } from 'node:util'
import polka from 'polka'
import { describe, expect, it } from 'vitest'
import { dayNumber, isoFromDayNumber } from '../pipeline/format.ts'
import { monthSpanOf } from '../server/access/plan-check.ts'
import { RateLimiter, type RateRule } from '../server/access/rate-limiter.ts'
import { monthOf } from '../server/clock.ts'
import { todayUtc } from '../server/lookup/lookup-date.ts'
import { setBaseHeaders, setHeader, setKnownHeader } from '../server/http/respond.ts'
import { parseQueryString, polkaApp } from '../server/http/router.ts'
import { formatLine, jsonLogger } from '../server/logger.ts'
import { PROJECT_ROOT } from './support/shared.ts'

/** A small deterministic PRNG, so a failure names a reproducible case. */
function random(seed: number) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)]!

describe('query parsing', () => {
  const sameAsQuerystring = (query: string | null) => {
    const ours = parseQueryString(query)
    const theirs = querystringParse(query as string)
    return Object.getPrototypeOf(ours) === null && isDeepStrictEqual(Object.entries(ours), Object.entries(theirs))
  }

  it('gives node:querystring.parse results for the usual queries and for odd ones', () => {
    const cases = [
      null,
      '',
      'zip=30303',
      'zip=30303&mode=full&strict=on',
      'address=123%20Main%20St%2C%20Seattle%2C%20WA%2098101',
      'address=123+Main+St&city=Saint+Paul',
      'lat=47.6&lng=-122.3',
      'zip=1&zip=2',
      'zip=1&zip=2&zip=3',
      'zip',
      'zip=',
      '=1',
      'a=1&&b=2',
      'a=1&',
      '&a=1',
      'a=b=c',
      'a=%',
      'a=%4',
      'a=%zz',
      'a=%E0%A4%A',
      'a=%C3%A9',
      'a=%2B+%20',
      'a%20b=1',
      'a+b=1',
      '__proto__=1',
      'toString=1&constructor=2',
      'a=%F0%9F%98%80',
      'a=é😀',
      Array.from({ length: 1200 }, (_, i) => `k${i}=v`).join('&'),
    ]
    for (const query of cases) expect(sameAsQuerystring(query), JSON.stringify(query)).toBe(true)
  })

  it('agrees with node:querystring.parse on 100,000 generated queries', () => {
    const next = random(1)
    const atoms = ['a', 'zip', 'address', '__proto__', '=', '&', '+', '%', '%2', '%20', '%41', '%2B', '%26', '%3D', '%E9', '%C3%A9', '%F0%9F%98%80', '%zz', 'é', '😀', '\ud800', ' ', '1', 'f', '.', '-', '~', '#', '?', ',', '30303']
    const names = ['a', 'zip', 'address', 'city', 'x%41', 'y+z', '']
    const values = atoms.filter((a) => a !== '&' && a !== '=')
    for (let n = 0; n < 100_000; n++) {
      let query = ''
      if (n % 2 === 0) {
        for (let i = 1 + Math.floor(next() * 10); i > 0; i--) query += pick(next, atoms)
      } else {
        const pairs: string[] = []
        for (let p = 1 + Math.floor(next() * 4); p > 0; p--) {
          let value = ''
          for (let j = Math.floor(next() * 5); j > 0; j--) value += pick(next, values)
          pairs.push(`${pick(next, names)}=${value}`)
        }
        query = pairs.join('&')
      }
      if (!sameAsQuerystring(query)) expect.fail(`query ${JSON.stringify(query)}`)
    }
  })
})

describe('route dispatch', () => {
  type Seen = { handler: string; params?: unknown; query?: unknown; path?: unknown; search?: unknown; originalUrl?: unknown; parsedUrl?: unknown; error?: string }
  const patterns: [string, string][] = [
    ['GET', '/healthz'],
    ['GET', '/v1/tax/:state'],
    ['GET', '/v1/account'],
    ['POST', '/v1/orders'],
    ['GET', '/v1/orders/:provider/:id'],
    ['DELETE', '/v1/orders/:provider/:id'],
    ['GET', '/v1/:any/account'],
    ['GET', '/openapi.json'],
    ['PUT', '/taxjar/v2/nexus/regions'],
  ]

  /** Runs one request through a handler and records which route answered with what. */
  function run(handler: (req: IncomingMessage, res: ServerResponse) => void, method: string, url: string, seen: Seen[]) {
    const req = new IncomingMessage(new Socket())
    req.method = method
    req.url = url
    const res = new ServerResponse(req)
    const start = seen.length
    handler(req, res)
    return seen.slice(start)
  }

  function apps() {
    const seen: Seen[] = []
    const record = (name: string) => (message: IncomingMessage) => {
      const req = message as IncomingMessage & Record<string, unknown>
      seen.push({ handler: name, params: req.params, query: req.query, path: req.path, search: req.search, originalUrl: req.originalUrl, parsedUrl: req._parsedUrl })
    }
    const wares = [
      (req: IncomingMessage, _res: ServerResponse, next: (error?: unknown) => void) => next(req.url?.includes('fail') ? new Error('guarded') : undefined),
      (_req: IncomingMessage, _res: ServerResponse, next: (error?: unknown) => void) => next(),
    ]
    const endings = {
      onError: (error: unknown) => void seen.push({ handler: 'onError', error: (error as Error).message }),
      onNoMatch: record('onNoMatch'),
    }
    const routes = patterns.map(([method, path]) => ({ method: method as 'GET', path, handler: record(`${method} ${path}`) }))
    const ours = polkaApp(routes, wares, endings)
    const reference = polka(endings as unknown as polka.Options)
    for (const ware of wares) reference.use(ware as unknown as polka.Middleware)
    for (const route of routes) reference.add(route.method, route.path, route.handler as unknown as polka.Middleware)
    expect(ours.handler).not.toBe(reference.handler)
    return { seen, ours: ours.handler as unknown as http.RequestListener, reference: reference.handler as unknown as http.RequestListener }
  }

  it('chooses the route Polka chooses, with the same params, query and path fields', () => {
    const { seen, ours, reference } = apps()
    const urls = [
      '/healthz', '/healthz/', '//healthz', '/healthz?x=1', '/healthz/extra', '/', '//', '///', '', '?a=1', '/?a=1',
      '/v1/tax/ga', '/v1/tax/ga?zip=30303', '/v1/tax/GA/', '/v1/tax//', '/v1/tax/', '/v1/tax', '/v1/tax/g%20a?zip=1&zip=2', '/v1/tax/ga/x',
      '/v1/account', '/v1/x/account', '/v1/account/', '/v1/orders/shopify/123', '/v1/orders/shopify/', '/v1/orders//', '/v1/orders',
      '/openapi.json', '/openapi.json?x', '/taxjar/v2/nexus/regions', 'http://example.com/healthz', '/fail', '/healthz?fail', '/v1/tax/ga#frag',
    ]
    for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'PATCH']) {
      for (const url of urls) {
        const a = run(ours, method, url, seen)
        const b = run(reference, method, url, seen)
        expect(a, `${method} ${url}`).toHaveLength(1)
        expect(a, `${method} ${url}`).toEqual(b)
      }
    }
  })

  it('leaves a table it cannot take (wildcards, optional or suffixed parameters) to Polka', () => {
    const handler = () => undefined
    const ends = { onError: handler, onNoMatch: handler }
    for (const path of ['/files/*', '/a/:b?', '/a/:b.json', '/', '/a//b']) {
      expect(polkaApp([{ method: 'GET', path, handler }], [], ends).handler.name, path).toBe('bound handler')
    }
    expect(polkaApp([{ method: 'GET', path: '/a/:b', handler }], [], ends).handler.name).not.toBe('bound handler')
  })
})

describe('the access log line', () => {
  /** The line against JSON.stringify of the same object, with the time the line carries. */
  const sameAsStringify = (level: string, event: string, fields: Record<string, unknown>) => {
    const line = formatLine(level, event, fields)
    const parsed = JSON.parse(line) as unknown
    const time = parsed !== null && typeof parsed === 'object' && typeof (parsed as { time?: unknown }).time === 'string' ? (parsed as { time: string }).time : 'unused'
    return line === `${JSON.stringify({ time, level, event, ...fields })}\n`
  }

  it('is what JSON.stringify writes, for request lines and for odd fields', () => {
    class Custom {
      a = 1
    }
    const cases: Record<string, unknown>[] = [
      {},
      { method: 'GET', route: '/v1/tax/:state', path: '/v1/tax/ga', status: 200, duration_ms: 0.37, support_reference: '8e0c7a53-0000-4000-8000-000000000000', account_id: 'acct_0123456789abcdef' },
      { method: 'GET', route: null, path: '/a"b\\c\u0001\u001f\u007f', status: 404, duration_ms: 12, support_reference: 'x', account_id: null, aborted: true },
      { n: NaN, i: Infinity, m: -Infinity, z: -0, big: 1e21, small: 1e-7, u: undefined, f: () => 1, s: Symbol('s') },
      { nested: { d: new Date(0), list: [1, undefined, () => 1, 'x'] }, date: new Date(0), text: 'é😀\ud800\udc00\udfff' },
      { time: 'mine', a: 1 },
      { level: 'mine' },
      { event: 'mine' },
      { 1: 'first', a: 2 },
      { toJSON: () => 'whole' },
      Object.assign(Object.create(null) as Record<string, unknown>, { k: 'v' }),
      new Custom() as unknown as Record<string, unknown>,
      { ['__proto__']: 'own' },
    ]
    for (const fields of cases) {
      for (const [level, event] of [['info', 'request'], ['error', 'request_failed'], ['warn', 'ev"ent\n']]) {
        expect(sameAsStringify(level, event, fields), `${level} ${event} ${String(Object.keys(fields))}`).toBe(true)
      }
    }
  })

  it('carries the current time to the millisecond, as toISOString writes it', () => {
    const before = Date.now()
    const { time } = JSON.parse(formatLine('info', 'x', {})) as { time: string }
    const after = Date.now()
    expect(time).toBe(new Date(Date.parse(time)).toISOString())
    expect(Date.parse(time)).toBeGreaterThanOrEqual(before)
    expect(Date.parse(time)).toBeLessThanOrEqual(after)
  })
})

describe('batched log writes', () => {
  it('holds access lines briefly, writes every other line at once after them, in order', async () => {
    const writes: string[] = []
    const logger = jsonLogger((text) => void writes.push(text))
    logger.info('request', { n: 1 })
    logger.info('request', { n: 2 })
    expect(writes).toEqual([])
    logger.warn('something', { n: 3 })
    expect(writes).toHaveLength(1)
    expect(writes[0].split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { n: number }).n)).toEqual([1, 2, 3])
    logger.info('request', { n: 4 })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(writes).toHaveLength(2)
    expect(JSON.parse(writes[1])).toMatchObject({ event: 'request', n: 4 })
    logger.info('request', { n: 5 })
    logger.flush()
    expect(JSON.parse(writes[2])).toMatchObject({ event: 'request', n: 5 })
    logger.info('listening', { n: 6 })
    expect(JSON.parse(writes[3])).toMatchObject({ event: 'listening', n: 6 })
  })

  it('writes a large backlog before the timer, and everything pending when the process exits', async () => {
    const writes: string[] = []
    const logger = jsonLogger((text) => void writes.push(text))
    for (let i = 0; i < 2_000; i++) logger.info('request', { i, path: '/v1/tax/ga' })
    expect(writes.length).toBeGreaterThan(0)
    logger.flush()
    const lines = writes.join('').split('\n').filter(Boolean)
    expect(lines.map((l) => (JSON.parse(l) as { i: number }).i)).toEqual(Array.from({ length: 2_000 }, (_, i) => i))

    // A process that logs and exits at once (process.exit, and a drained event loop) loses nothing.
    const script = (exit: string) =>
      `import { jsonLogger } from './server/logger.ts'; const l = jsonLogger(); for (let i = 0; i < 500; i++) l.info('request', { i }); ${exit}`
    for (const exit of ['process.exit(0)', '', "setTimeout(() => { throw new Error('boom') }, 1)"]) {
      const result = await execa('node', ['--import', 'tsx', '--input-type=module', '-e', script(exit)], { cwd: PROJECT_ROOT, reject: false })
      const got = result.stdout.split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { i: number }).i)
      expect(got, exit || 'drained').toEqual(Array.from({ length: 500 }, (_, i) => i))
    }
  })
})

describe('the header table', () => {
  /** A response's header lines as a client reads them (without Date), from a real server. */
  async function wireHeaders(write: (res: ServerResponse) => void): Promise<string[]> {
    const server = http.createServer((_req, res) => write(res))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = server.address() as AddressInfo
      const response = await new Promise<IncomingMessage>((resolve) => http.get({ port, host: '127.0.0.1', agent: false }, resolve))
      response.resume()
      const pairs: string[] = []
      for (let i = 0; i < response.rawHeaders.length; i += 2) if (response.rawHeaders[i] !== 'Date') pairs.push(`${response.rawHeaders[i]}: ${response.rawHeaders[i + 1]}`)
      return pairs
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  }

  const id = '1b4e28ba-2fa1-41d2-883f-0016d3cca427'
  const steps = (fast: boolean) => (res: ServerResponse) => {
    if (fast) setBaseHeaders(res, id)
    else {
      res.setHeader('X-Request-Id', id)
      res.setHeader('X-Content-Type-Options', 'nosniff')
      res.setHeader('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'")
      res.setHeader('Content-Type', 'application/json; charset=utf-8')
      res.setHeader('Cache-Control', 'no-store')
    }
    for (const [lower, name, value] of [['ratelimit-limit', 'RateLimit-Limit', '10'], ['x-ratelimit-limit', 'X-RateLimit-Limit', '10']] as const) {
      if (fast) setKnownHeader(res, lower, name, value)
      else res.setHeader(name, value)
    }
    // A later setting of a name already set keeps its place and takes the new spelling and value.
    if (fast) setHeader(res, 'cache-control', 'no-cache')
    else res.setHeader('cache-control', 'no-cache')
    if (fast) setHeader(res, 'ETag', '"abc"')
    else res.setHeader('ETag', '"abc"')
    res.removeHeader('X-RateLimit-Limit')
    if (fast) setKnownHeader(res, 'content-length', 'Content-Length', 2)
    else res.setHeader('Content-Length', 2)
    res.end('{}')
  }

  it('gives the same headers, in the same order, as res.setHeader', async () => {
    const fast = await wireHeaders(steps(true))
    expect(fast).toEqual(await wireHeaders(steps(false)))
    expect(fast[0]).toBe(`X-Request-Id: ${id}`)
    expect(fast).toContain('cache-control: no-cache')
  })

  it('reads back through getHeader, getHeaderNames and hasHeader like setHeader entries', () => {
    const res = new ServerResponse(new IncomingMessage(new Socket()))
    setBaseHeaders(res, id)
    setKnownHeader(res, 'ratelimit-reset', 'RateLimit-Reset', '1')
    expect(res.getHeaderNames()).toEqual(['x-request-id', 'x-content-type-options', 'content-security-policy', 'content-type', 'cache-control', 'ratelimit-reset'])
    expect(res.getHeader('X-REQUEST-ID')).toBe(id)
    expect(res.hasHeader('RateLimit-Reset')).toBe(true)
    expect(res.getHeaders()).toMatchObject({ 'cache-control': 'no-store', 'content-type': 'application/json; charset=utf-8' })
  })

  it('refuses what setHeader refuses, with its errors', () => {
    const res = new ServerResponse(new IncomingMessage(new Socket()))
    expect(() => setHeader(res, 'Bad Name', 'x')).toThrow(expect.objectContaining({ code: 'ERR_INVALID_HTTP_TOKEN' }))
    expect(() => setHeader(res, 'X-Ok', 'line\nbreak')).toThrow(expect.objectContaining({ code: 'ERR_INVALID_CHAR' }))
    expect(() => setHeader(res, 'X-Ok', undefined as unknown as string)).toThrow(expect.objectContaining({ code: 'ERR_HTTP_INVALID_HEADER_VALUE' }))
  })
})

describe('dates and names', () => {
  it('keeps the month and the start of the next one as monthOf and Date.UTC give them', () => {
    const next = random(2)
    const instants = [Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 1) - 1, Date.UTC(2026, 11, 31, 23, 59, 59, 999), Date.UTC(2026, 11, 1), Date.UTC(2024, 1, 29, 12)]
    for (let i = 0; i < 2_000; i++) instants.push(Date.UTC(2000, 0, 1) + Math.floor(next() * 50 * 365 * 86_400_000))
    // Asked in order and out of order, so the kept span is both reused and replaced.
    for (const now of [...instants, ...instants.slice().sort((a, b) => a - b)]) {
      const d = new Date(now)
      const span = monthSpanOf(now)
      expect(span.month).toBe(monthOf(now))
      expect(span.nextMonthStarts).toBe(new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)).toISOString())
    }
    expect(() => monthSpanOf(Number.NaN)).toThrow(RangeError)
  })

  it("keeps today's date as toISOString gives it, up to the last representable instant", () => {
    const next = random(4)
    const instants = [0, -1, 86_399_999, 86_400_000, Date.UTC(2026, 10, 21, 23, 59, 59, 999), Date.UTC(2026, 10, 22), -8.64e15, 8.64e15]
    for (let i = 0; i < 5_000; i++) instants.push(Math.floor((next() - 0.3) * 4e12))
    for (const now of [...instants, ...instants.slice().sort((a, b) => a - b)]) expect(todayUtc(now)).toBe(new Date(now).toISOString().slice(0, 10))
    todayUtc(8.64e15)
    expect(() => todayUtc(8.64e15 + 1)).toThrow(RangeError)
    expect(() => todayUtc(Number.NaN)).toThrow(RangeError)
  })

  it('converts dates and day numbers as Date does, however often asked', () => {
    for (let day = -800; day < 70_000; day += 7) {
      const iso = new Date(day * 86_400_000).toISOString().slice(0, 10)
      expect(isoFromDayNumber(day)).toBe(iso)
      expect(isoFromDayNumber(day)).toBe(iso)
      expect(dayNumber(iso)).toBe(day)
      expect(dayNumber(iso)).toBe(day)
    }
    expect(Number.isNaN(dayNumber('not a date'))).toBe(true)
    expect(isoFromDayNumber(-0)).toBe('1970-01-01')
    expect(() => isoFromDayNumber(Number.NaN)).toThrow(RangeError)
  })

  it('hashes keys as the stored sha256 does', () => {
    const key = `tx_live_${'Ab3x'.repeat(11)}`
    const { hash } = crypto as unknown as { hash?: (a: string, d: string, e: string) => string }
    if (hash) expect(hash('sha256', key, 'hex')).toBe(createHash('sha256').update(key, 'utf8').digest('hex'))
  })
})

describe('the rate limiter', () => {
  /** The limiter as it was, a new bucket object per request: the reference for the one that updates in place. */
  class ReferenceLimiter {
    readonly buckets = new Map<string, { tokens: number; at: number; rule: RateRule }>()
    constructor(private readonly clock: () => number) {}
    take(key: string, rule: RateRule) {
      const now = this.clock()
      const bucket = this.buckets.get(key) ?? { tokens: rule.burst, at: now, rule }
      let tokens = Math.min(rule.burst, bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * rule.ratePerSecond)
      const allowed = tokens >= 1
      if (allowed) tokens -= 1
      if (this.buckets.size > 10_000) {
        for (const [k, b] of this.buckets) if (b.tokens + ((now - b.at) / 1000) * b.rule.ratePerSecond >= b.rule.burst) this.buckets.delete(k)
      }
      this.buckets.set(key, { tokens, at: now, rule })
      return {
        allowed,
        limit: rule.burst,
        remaining: Math.floor(tokens),
        resetSeconds: Math.ceil((rule.burst - tokens) / rule.ratePerSecond),
        retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) / rule.ratePerSecond)),
      }
    }
  }

  it('decides as the reference does, through sweeps and rule changes', () => {
    const next = random(3)
    let now = 1_000_000
    const clock = () => now
    const ours = new RateLimiter(clock)
    const reference = new ReferenceLimiter(clock)
    const rules: RateRule[] = [{ ratePerSecond: 5, burst: 10 }, { ratePerSecond: 50, burst: 100 }, { ratePerSecond: 0.5, burst: 1 }]
    for (let i = 0; i < 60_000; i++) {
      now += Math.floor(next() * 30)
      // A few hot keys, and many cold ones, so the map passes its sweep size.
      const key = next() < 0.5 ? `hot${Math.floor(next() * 4)}` : `cold${Math.floor(next() * 14_000)}`
      const rule = pick(next, rules)
      expect(ours.take(key, rule)).toEqual(reference.take(key, rule))
    }
  })
})
