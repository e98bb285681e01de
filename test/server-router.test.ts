// The router over real HTTP: routes of fixed segments (the order-tax POST) and routes shaped
// `/fixed/segments/:param` (the rate lookup) are dispatched without Polka's route search, and every
// URL still reaches the route Polka would pick.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createApp } from '../server/app.ts'
import { memoryLogger } from '../server/base/logger.ts'
import { defineRoute, type Route } from '../server/dispatch/route.ts'
import type { Snapshot } from '../server/snapshot/open-snapshot.ts'
import { gateStore } from './support/store-gate.ts'
import { resolveTiers } from '../server/base/tiers.ts'

const Answer = z.object({ route: z.string(), id: z.string().optional(), q: z.string().optional() })
const answering = (name: string, path: string) =>
  defineRoute({
    method: 'GET',
    path,
    operationId: name,
    summary: name,
    auth: 'public',
    params: path.includes(':') ? z.object({ id: z.string() }) : undefined,
    query: z.object({ q: z.string().optional() }),
    responses: { 200: { description: name, schema: Answer } },
  }).handle(({ params, query }) => ({ status: 200, body: { route: name, ...(params as object), ...query } }))

// `/t/items/:id` has no rival; `/t/things/:id` shares its URLs with `/t/things/special`, declared
// first (Polka takes the first declared route that matches).
const ROUTES = [answering('item', '/t/items/:id'), answering('special', '/t/things/special'), answering('thing', '/t/things/:id'), answering('fixed', '/t/fixed/path')] as Route[]

function appWith(routes: Route[]) {
  return createApp({
    // Public routes that read no snapshot: only the id a reply cache would key on is asked.
    snapshots: { current: { id: 'router-test' } as Snapshot },
    store: gateStore(new Promise(() => {})),
    settings: { tiers: resolveTiers(undefined), jsonBodyLimit: 1024 },
    logger: memoryLogger(),
    routes,
  })
}

let server: http.Server
let url: string
let searches = 0

beforeAll(async () => {
  const app = appWith(ROUTES)
  const find = app.find.bind(app)
  app.find = ((method: Parameters<typeof find>[0], path: string) => {
    searches++
    return find(method, path)
  }) as typeof app.find
  server = http.createServer(app.handler as unknown as http.RequestListener)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

/** The answer and how many route searches Polka ran for it. */
async function ask(path: string, init?: RequestInit) {
  const before = searches
  const response = await fetch(`${url}${path}`, init)
  return { status: response.status, allow: response.headers.get('allow'), body: await response.json(), searches: searches - before }
}

describe('routes shaped /fixed/segments/:param', () => {
  it('are answered without a route search, the parameter decoded and the query read as Polka would', async () => {
    expect(await ask('/t/items/abc')).toMatchObject({ status: 200, body: { route: 'item', id: 'abc' }, searches: 0 })
    expect(await ask('/t/items/a%20b?q=x%26y')).toMatchObject({ status: 200, body: { route: 'item', id: 'a b', q: 'x&y' }, searches: 0 })
  })

  it('leave every other URL shape to Polka, with the same answers', async () => {
    const trailing = await ask('/t/items/abc/')
    expect(trailing).toMatchObject({ status: 200, body: { route: 'item', id: 'abc' } })
    expect(trailing.searches).toBeGreaterThan(0)
    expect(await ask('/t/items/')).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND' } } })
    expect(await ask('/t/items/a/b')).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND' } } })
    expect(await ask('/t/items/abc', { method: 'POST' })).toMatchObject({ status: 405, allow: 'GET, HEAD, OPTIONS', body: { error: { code: 'METHOD_NOT_ALLOWED' } } })
  })

  it('stay with Polka when another route can match the same URLs, so the route declared first still wins', async () => {
    const special = await ask('/t/things/special')
    expect(special).toMatchObject({ status: 200, body: { route: 'special' } })
    expect(special.searches).toBeGreaterThan(0)
    const other = await ask('/t/things/other')
    expect(other).toMatchObject({ status: 200, body: { route: 'thing', id: 'other' } })
    expect(other.searches).toBeGreaterThan(0)
  })
})

describe('routes of fixed segments', () => {
  it('are answered without a route search when no other route can match them; other spellings go through Polka, with the same answers', async () => {
    expect(await ask('/t/fixed/path?q=1')).toMatchObject({ status: 200, body: { route: 'fixed', q: '1' }, searches: 0 })
    const trailing = await ask('/t/fixed/path/')
    expect(trailing).toMatchObject({ status: 200, body: { route: 'fixed' } })
    expect(trailing.searches).toBeGreaterThan(0)
    expect(await ask('/t/fixed/path', { method: 'POST' })).toMatchObject({ status: 405, allow: 'GET, HEAD, OPTIONS' })
    expect(await ask('/t/fixed/pat')).toMatchObject({ status: 404 })
  })
})

describe('route declarations', () => {
  it('refuse a reply cache on a route that is not GET: the cache is keyed by URL alone', () => {
    const post = { ...ROUTES[0], method: 'POST', cachesReplies: true } as Route
    expect(() => appWith([post])).toThrow(/caches replies, which only a GET route may/)
  })
})
