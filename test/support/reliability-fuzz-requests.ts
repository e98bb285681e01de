// Generated requests for one route of the registry (fast-check): its path with hostile parameter
// values, any method (CONNECT included), a query string of its own and foreign keys (repeated,
// conflicting, malformed percent-encoding, raw bytes), credentials in every form, extra headers
// (any Expect), sometimes no Host, and a body that is a valid transaction with some fields broken
// or nested deep, any JSON, deep JSON, NDJSON, gzip (or not), not JSON at all, or over the size
// limit — framed by Content-Length or chunked.
import { gzipSync } from 'node:zlib'
import fc from 'fast-check'
import type { Route } from '../../server/dispatch/route.ts'
import type { RawRequest } from './reliability-raw-http.ts'
import { deepJsonText, hostileJsonValue, hostileQueryValue, hostileString, TRAVERSALS } from './reliability-fuzz-values.ts'

export type FuzzContext = {
  key: string
  /** transaction ids this account has stored, so requests also hit real records */
  knownIds: string[]
  /** today, UTC, for transaction dates that fall in the window */
  today: string
  /** the server's JSON body limit, to send bodies just over it */
  jsonLimit: number
}

/** A generated request, and what it might have written under (for the state fingerprint). */
export type FuzzRequest = { request: RawRequest; providers: string[]; description: string }

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'CONNECT']

const keysOf = (schema: unknown): string[] => Object.keys((schema as { shape?: Record<string, unknown> } | undefined)?.shape ?? {})

/** A path parameter: a plausible value, a stored id, unicode, a traversal, or huge. */
function paramValue(name: string, context: FuzzContext): fc.Arbitrary<string> {
  const plausible = name === 'state' ? fc.constantFrom('ga', 'GA', 'ct', 'de', 'Georgia', '-', 'N', 'false', 'xx', 'zz') : fc.constantFrom('fz-1', 'order-1', ...context.knownIds.slice(0, 5))
  return fc.oneof(
    { arbitrary: plausible, weight: 4 },
    { arbitrary: hostileString.map(encodeURIComponent), weight: 3 },
    { arbitrary: fc.constantFrom(...TRAVERSALS), weight: 2 },
    { arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }).map((s) => s.replace(/[\s/?#]/g, '')), weight: 1 },
  )
}

function targetPath(route: Route | null, context: FuzzContext): fc.Arbitrary<string> {
  if (!route) {
    // No route: unknown paths, near misses of real ones, traversals.
    const segment = fc.oneof(fc.constantFrom('v1', 'v2', 'taxjar', 'admin', 'tax', 'portability', 'orders', 'etc', 'passwd', 'openapi.json', 'healthz', ''), fc.constantFrom(...TRAVERSALS), hostileString.map(encodeURIComponent))
    return fc.array(segment, { minLength: 1, maxLength: 6 }).map((parts) => `/${parts.join('/')}`)
  }
  const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1])
  return fc
    .record({
      values: fc.tuple(...names.map((name) => paramValue(name, context))),
      suffix: fc.oneof({ arbitrary: fc.constant(''), weight: 8 }, { arbitrary: fc.constantFrom('/', '//', '/x', '/..', '/%2e%2e/%2e%2e'), weight: 1 }),
    })
    .map(({ values, suffix }) => names.reduce((path, name, i) => path.replace(`:${name}`, values[i] || 'x'), route.path) + suffix)
}

function queryString(route: Route | null): fc.Arbitrary<string> {
  const known = route ? keysOf(route.query) : []
  const key = fc.oneof(
    { arbitrary: known.length > 0 ? fc.constantFrom(...known) : fc.constant('zip'), weight: 6 },
    { arbitrary: fc.constantFrom('zip', 'address', 'lat', 'lng', 'as_of', 'period', 'provider', 'band', '__proto__', 'constructor', 'a[b]', 'a[]', 'x'), weight: 2 },
    { arbitrary: hostileString, weight: 1 },
  )
  const pair = fc.record({ key, value: hostileQueryValue, raw: fc.integer({ min: 0, max: 9 }) }).map(({ key, value, raw }) =>
    // One pair in ten goes out unencoded (control bytes and spaces included): the server must refuse it cleanly.
    raw === 0 ? `${key}=${value.replace(/[\r\n]/g, '')}` : `${encodeURIComponent(key)}=${encodeURIComponent(value)}`,
  )
  return fc.oneof(
    { arbitrary: fc.array(pair, { maxLength: 6 }).map((pairs) => (pairs.length ? `?${pairs.join('&')}` : '')), weight: 8 },
    { arbitrary: fc.constantFrom('?', '?&&', '?=', '?zip', '?zip=%', '?zip=%zz', '?zip=30303&zip=30303', '?zip=30303&address=1%20Main%20St', '?lat=NaN&lng=Infinity', '?as_of=2026-02-30&period=2026Q2'), weight: 2 },
  )
}

function credentials(context: FuzzContext): fc.Arbitrary<[string, string][]> {
  const { key } = context
  return fc.oneof(
    { arbitrary: fc.constant<[string, string][]>([['X-API-Key', key]]), weight: 14 },
    { arbitrary: fc.constant<[string, string][]>([['Authorization', `Bearer ${key}`]]), weight: 2 },
    {
      arbitrary: fc.constantFrom<[string, string][]>(
        [],
        [['X-API-Key', `${key}x`]],
        [['X-API-Key', key], ['X-API-Key', 'tx_live_other']],
        [['X-API-Key', 'tx_live_other'], ['Authorization', `Bearer ${key}`]],
        [['Authorization', `Token token="${key}"`]],
        [['Authorization', `Basic ${Buffer.from(`${key}:`).toString('base64')}`]],
        [['Authorization', 'Bearer']],
        [['X-API-Key', '']],
      ),
      weight: 3,
    },
    { arbitrary: hostileString.map((s): [string, string][] => [['X-API-Key', s.replace(/[\r\n]/g, '')]]), weight: 1 },
  )
}

const extraHeader: fc.Arbitrary<[string, string]> = fc.tuple(
  fc.constantFrom('Accept', 'Accept-Encoding', 'If-None-Match', 'X-Api-Version', 'X-Request-Id', 'Cookie', 'Range', 'Origin', 'X-Forwarded-For', 'Idempotency-Key', 'Content-Language', 'Expect', 'X-Unknown'),
  fc.oneof(fc.constantFrom('*/*', 'gzip, br', '"abc"', '2020-08-07', 'bytes=0-1', 'null', '100-continue', '100-CONTINUE'), hostileString.map((s) => s.replace(/[\r\n]/g, '').slice(0, 9_000))),
)

/** The Host header, now and then missing or empty. */
const host = fc.oneof({ arbitrary: fc.constant<string | null>('fuzz.test'), weight: 12 }, { arbitrary: fc.constantFrom<string | null>(null, ''), weight: 1 })

/** A body's bytes and headers, and the values it carries (to find the providers it names). */
type Body = { type: string | null; encoding?: string; bytes: Buffer; values?: unknown[] }

function transaction(context: FuzzContext): fc.Arbitrary<Record<string, unknown>> {
  const base = (id: string, refund: boolean): Record<string, unknown> => ({
    transaction_id: id,
    transaction_date: context.today,
    to_country: 'US',
    to_zip: '30303',
    to_state: 'GA',
    amount: refund ? '-19.99' : '19.99',
    shipping: '0.01',
    sales_tax: '1.60',
    ...(refund ? { transaction_reference_id: 'fz-1' } : {}),
    line_items: [{ id: '1', quantity: 2, unit_price: '9.99', sales_tax: '1.60' }],
  })
  const field = fc.constantFrom('transaction_id', 'transaction_date', 'to_zip', 'to_state', 'to_country', 'amount', 'shipping', 'sales_tax', 'provider', 'kind', 'line_items', 'exemption_type', 'marketplace', 'transaction_reference_id', 'from_zip', 'to_city', '__proto__', 'extra')
  return fc
    .record({
      id: fc.oneof(fc.constantFrom('fz-1', 'fz-2', ...context.knownIds.slice(0, 3)), fc.integer({ min: 1, max: 1e6 }).map((n) => `fz-${n}`)),
      refund: fc.boolean(),
      edits: fc.array(fc.record({ field, value: fc.option(hostileJsonValue, { nil: undefined }) }), { maxLength: 3 }),
    })
    .map(({ id, refund, edits }) => {
      const order = base(id, refund)
      for (const { field, value } of edits) {
        if (value === undefined) delete order[field]
        else Object.defineProperty(order, field, { value, enumerable: true, writable: true, configurable: true })
      }
      return order
    })
}

function body(route: Route | null, context: FuzzContext): fc.Arbitrary<Body | null> {
  const json = (value: unknown): Body => ({ type: 'application/json', bytes: Buffer.from(JSON.stringify(value) ?? 'null'), values: [value] })
  const text = (type: string | null, value: string): Body => ({ type, bytes: Buffer.from(value) })
  const isBackfill = route?.path.endsWith('/backfill') ?? false
  const isNexus = route?.path === '/v1/portability/nexus'
  const shaped: fc.Arbitrary<Body> = isNexus
    ? fc
        .array(fc.record({ state: fc.oneof(fc.constantFrom('GA', 'ct', 'Massachusetts', 'XX', ''), hostileString), registered_since: fc.option(fc.oneof(fc.constant('2025-01-01'), hostileString)) }), { maxLength: 4 })
        .map((regions) => json({ regions }))
    : isBackfill
      ? fc.oneof(
          fc.array(transaction(context), { maxLength: 5 }).map((rows) => ({ ...text('application/x-ndjson', rows.map((r) => JSON.stringify(r)).join('\n')), values: rows })),
          fc.array(transaction(context), { maxLength: 5 }).map(json),
          fc.array(transaction(context), { maxLength: 5 }).map((rows) => ({ type: 'application/x-ndjson', encoding: 'gzip', bytes: gzipSync(rows.map((r) => JSON.stringify(r)).join('\n')), values: rows })),
          fc.constantFrom<Body>(
            { type: 'application/x-ndjson', encoding: 'br', bytes: Buffer.from('{}') },
            { type: 'application/x-ndjson', encoding: 'gzip, gzip', bytes: Buffer.from('{}') },
            { type: 'application/x-ndjson', encoding: 'gzip', bytes: Buffer.from('{"not": "gzip"}\n') },
          ),
          fc.array(fc.oneof(hostileString, deepJsonText), { maxLength: 4 }).map((lines) => text('application/x-ndjson', lines.join('\n'))),
        )
      : transaction(context).map(json)
  return fc.oneof(
    { arbitrary: fc.constant(null), weight: route?.body || isBackfill ? 1 : 6 },
    { arbitrary: shaped, weight: route?.body || isBackfill ? 8 : 1 },
    { arbitrary: hostileJsonValue.map(json), weight: 2 },
    { arbitrary: deepJsonText.map((t) => text('application/json', t)), weight: 1 },
    // A transaction with one field nested deep (the last copy of a key wins in JSON.parse).
    {
      arbitrary: fc
        .record({ order: transaction(context), field: fc.constantFrom('amount', 'to_zip', 'to_state', 'line_items', 'extra'), deep: deepJsonText })
        .map(({ order, field, deep }) => text('application/json', `${JSON.stringify(order).slice(0, -1)},"${field}":${deep}}`)),
      weight: 1,
    },
    {
      arbitrary: fc
        .constantFrom('NaN', 'Infinity', '1e309', '{"amount":1e309}', '{"amount":NaN}', '[', '{"a":', '\u0000', '{"a":1}{"b":2}', '\ufeff{}', "{'a':1}", '')
        .map((t) => text('application/json', t)),
      weight: 2,
    },
    { arbitrary: fc.constantFrom('text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', 'application/vnd.api+json', 'APPLICATION/JSON').map((type) => text(type, '{"regions":[]}')), weight: 1 },
    { arbitrary: fc.constant<Body>({ type: 'application/json', bytes: Buffer.from(`{"a":"${'x'.repeat(context.jsonLimit)}"}`) }), weight: 1 },
  )
}

/** Chunked framing of a body, in pieces of a few bytes to a few kilobytes. */
function chunked(bytes: Buffer): Buffer {
  const parts: Buffer[] = []
  for (let at = 0, size = 7; at < bytes.length; at += size, size = Math.min(size * 3, 8_192)) {
    const piece = bytes.subarray(at, at + size)
    parts.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'))
  }
  parts.push(Buffer.from('0\r\n\r\n'))
  return Buffer.concat(parts)
}

const providersIn = (value: unknown): string[] => {
  const found: string[] = []
  const visit = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(visit)
    else if (v && typeof v === 'object') {
      const provider = (v as Record<string, unknown>).provider
      if (typeof provider === 'string' || typeof provider === 'number') found.push(String(provider))
    }
  }
  visit(value)
  return found
}

/** Requests aimed at `route` (or at no route, when null). */
export function requestsFor(route: Route | null, context: FuzzContext): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      method: fc.oneof({ arbitrary: fc.constant(route?.method ?? 'GET'), weight: 6 }, { arbitrary: fc.constantFrom(...METHODS), weight: 1 }),
      path: targetPath(route, context),
      query: queryString(route),
      credentials: credentials(context),
      host,
      extra: fc.array(extraHeader, { maxLength: 3 }),
      body: body(route, context),
      framing: fc.constantFrom('length', 'length', 'length', 'chunked'),
    })
    .map(({ method, path, query, host, credentials, extra, body, framing }) => {
      const headers: [string, string][] = [...(host === null ? [] : [['Host', host] as [string, string]]), ...credentials, ...extra]
      let bytes: Buffer | undefined
      if (body) {
        if (body.type) headers.push(['Content-Type', body.type])
        if (body.encoding) headers.push(['Content-Encoding', body.encoding])
        if (framing === 'chunked') {
          headers.push(['Transfer-Encoding', 'chunked'])
          bytes = chunked(body.bytes)
        } else {
          headers.push(['Content-Length', String(body.bytes.length)])
          bytes = body.bytes
        }
      }
      headers.push(['Connection', 'close'])
      const target = `${path}${query}`
      const queryProviders = [...query.matchAll(/provider=([^&]*)/g)].map((m) => {
        try {
          return decodeURIComponent(m[1])
        } catch {
          return m[1]
        }
      })
      const description = `${method} ${target.slice(0, 300)} ${JSON.stringify(headers.map(([n, v]) => `${n}: ${v.slice(0, 80)}`))} body ${body ? `${body.type} ${body.bytes.length} B: ${body.bytes.subarray(0, 300).toString()}` : 'none'}`
      return { request: { method, target, headers, body: bytes }, providers: [...providersIn(body?.values ?? []), ...queryProviders], description }
    })
}
