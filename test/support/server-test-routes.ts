// Test-only routes, registered through the same registry mechanism lookups will use.
import { setTimeout as sleep } from 'node:timers/promises'
import * as z from 'zod'
import { defineRoute } from '../../server/dispatch/route.ts'
import { HttpError } from '../../server/base/errors.ts'

/** A lookup: counts against the quota; `?miss=1` answers 404 like an unresolvable ZIP. */
export const testLookupRoute = defineRoute({
  method: 'GET',
  path: '/v1/test-lookup/:zip',
  operationId: 'testLookup',
  summary: 'test lookup',
  auth: 'key',
  countsAsLookup: true,
  params: z.object({ zip: z.string().regex(/^\d{5}$/) }),
  query: z.object({ miss: z.enum(['1']).optional() }),
  responses: {
    200: { description: 'found', schema: z.object({ zip: z.string(), states: z.array(z.string()), snapshot: z.string() }) },
  },
}).handle(({ params, query, snapshot }) => {
  const entries = snapshot.rates.lookupZip(params.zip)
  if (query.miss || entries.length === 0) throw new HttpError('NOT_FOUND', `ZIP ${params.zip} is not served.`)
  return { status: 200, body: { zip: params.zip, states: entries.map((e) => e.state), snapshot: snapshot.id } }
})

/** Reads the snapshot, waits, reads it again: a swap in between must not change what it sees. */
export const testSlowReadRoute = defineRoute({
  method: 'GET',
  path: '/test/slow-read/:zip',
  operationId: 'testSlowRead',
  summary: 'test slow read',
  auth: 'public',
  params: z.object({ zip: z.string() }),
  query: z.object({ ms: z.coerce.number().int().min(0).max(200).default(10) }),
  responses: {
    200: { description: 'ok', schema: z.object({ before: z.string(), after: z.string(), cities: z.array(z.string()) }) },
  },
}).handle(async ({ params, query, snapshot }) => {
  const before = snapshot.id
  const first = snapshot.rates.lookupZip(params.zip)
  await sleep(query.ms)
  const second = snapshot.rates.lookupZip(params.zip)
  if (JSON.stringify(first) !== JSON.stringify(second)) throw new Error('snapshot changed under a request')
  return { status: 200, body: { before, after: snapshot.id, cities: second.map((e) => e.city) } }
})

/** The requests in testHeldRoute's handler, each released by calling it. */
export const heldRequests: (() => void)[] = []

/** Answers once the test releases it: a request known to be in its handler, however busy the machine. */
export const testHeldRoute = defineRoute({
  method: 'GET',
  path: '/test/held',
  operationId: 'testHeld',
  summary: 'test request held until released',
  auth: 'public',
  responses: { 200: { description: 'released', schema: z.object({ released: z.literal(true) }) } },
}).handle(async () => {
  await new Promise<void>((resolve) => heldRequests.push(resolve))
  return { status: 200, body: { released: true as const } }
})

export const testEchoRoute = defineRoute({
  method: 'POST',
  path: '/test/echo',
  operationId: 'testEcho',
  summary: 'test echo',
  auth: 'public',
  body: z.object({ name: z.string().min(2), count: z.number().int().positive() }),
  bodyLimitBytes: 1024,
  responses: { 200: { description: 'echo', schema: z.object({ name: z.string(), count: z.number() }) } },
}).handle(({ body }) => ({ status: 200, body }))

export const testBoomRoute = defineRoute({
  method: 'GET',
  path: '/test/boom',
  operationId: 'testBoom',
  summary: 'test failure',
  auth: 'public',
  responses: { 200: { description: 'never' } },
}).handle(() => {
  throw new Error('secret internal detail at /srv/taxatlas')
})

/** Writes its answer itself, as NDJSON, and returns no reply. */
export const testSelfWrittenRoute = defineRoute({
  method: 'GET',
  path: '/test/self-written',
  operationId: 'testSelfWritten',
  summary: 'test handler writing its own response',
  auth: 'key',
  responses: { 200: { description: 'two NDJSON lines' } },
}).handle(({ res }) => {
  res.setHeader('Content-Type', 'application/x-ndjson')
  res.write('{"line":1}\n')
  res.end('{"line":2}\n')
})
