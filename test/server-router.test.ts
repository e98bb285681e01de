// The router over real HTTP: a URL reaches the route declared first among those matching it, one
// trailing slash ignored and a parameter taking one whole segment; a known path with another method
// is a 405 with Allow, an unknown one a 404. A route no URL could reach is refused when declared.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { createApp } from '../server/app.ts'
import { memoryLogger } from '../server/base/logger.ts'
import { defineRoute, type Route } from '../server/dispatch/route.ts'
import type { Snapshot } from '../server/snapshot/open-snapshot.ts'
import { gateStore } from './support/store-gate.ts'
import { resolveTiers } from '../server/base/tiers.ts'
import polka from 'polka'
import { adminRoutes } from '../server/admin/admin-routes.ts'
import { RouteTable } from '../server/dispatch/route-table.ts'
import { API_ROUTES } from '../server/routes/index.ts'

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

beforeAll(async () => {
  server = http.createServer(appWith(ROUTES).handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

async function ask(path: string, init?: RequestInit) {
  const response = await fetch(`${url}${path}`, init)
  return { status: response.status, allow: response.headers.get('allow'), body: await response.json() }
}

describe('routes shaped /fixed/segments/:param', () => {
  it('are answered with the parameter decoded and the query read', async () => {
    expect(await ask('/t/items/abc')).toMatchObject({ status: 200, body: { route: 'item', id: 'abc' } })
    expect(await ask('/t/items/a%20b?q=x%26y')).toMatchObject({ status: 200, body: { route: 'item', id: 'a b', q: 'x&y' } })
  })

  it('take one trailing slash as the same path, and no other segment count', async () => {
    expect(await ask('/t/items/abc/')).toMatchObject({ status: 200, body: { route: 'item', id: 'abc' } })
    expect(await ask('/t/items/')).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND' } } })
    expect(await ask('/t/items/a/b')).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND' } } })
    expect(await ask('/t/items/abc', { method: 'POST' })).toMatchObject({ status: 405, allow: 'GET, HEAD, OPTIONS', body: { error: { code: 'METHOD_NOT_ALLOWED' } } })
  })

  it('yield to a route declared before them that matches the same URL', async () => {
    expect(await ask('/t/things/special')).toMatchObject({ status: 200, body: { route: 'special' } })
    expect(await ask('/t/things/special/')).toMatchObject({ status: 200, body: { route: 'special' } })
    expect(await ask('/t/things/other')).toMatchObject({ status: 200, body: { route: 'thing', id: 'other' } })
  })
})

describe('routes of fixed segments', () => {
  it('answer their path, with or without a trailing slash; other methods are a 405 and other paths a 404', async () => {
    expect(await ask('/t/fixed/path?q=1')).toMatchObject({ status: 200, body: { route: 'fixed', q: '1' } })
    expect(await ask('/t/fixed/path/')).toMatchObject({ status: 200, body: { route: 'fixed' } })
    expect(await ask('/t/fixed/path', { method: 'POST' })).toMatchObject({ status: 405, allow: 'GET, HEAD, OPTIONS' })
    expect(await ask('/t/fixed/pat')).toMatchObject({ status: 404 })
    expect(await ask('/t/fixed/path/more')).toMatchObject({ status: 404 })
  })
})

describe('route declarations', () => {
  it('refuse a reply cache on a route that is not GET: the cache is keyed by URL alone', () => {
    const post = { ...ROUTES[0], method: 'POST', cachesReplies: true } as Route
    expect(() => appWith([post])).toThrow(/caches replies, which only a GET route may/)
  })

  it('refuse a path declared twice, and a route that a route declared before it answers for', () => {
    expect(() => appWith([ROUTES[0], answering('again', '/t/items/:id')])).toThrow(/GET \/t\/items\/:id is declared twice/)
    expect(() => appWith([answering('thing', '/t/things/:id'), answering('special', '/t/things/special')])).toThrow(/\/t\/things\/special is never reached: \/t\/things\/:id/)
  })

  it('refuse a path with segments other than fixed ones and :name ones', () => {
    expect(() => appWith([answering('wild', '/t/files/*')])).toThrow(/only fixed segments and :name segments/)
    expect(() => appWith([answering('optional', '/t/items/:id?')])).toThrow(/only fixed segments and :name segments/)
  })
})

describe('the route table', () => {
  it("answers every URL with the route and parameters Polka's router chose for the API's routes", () => {
    const declared = [...API_ROUTES, ...adminRoutes({} as Parameters<typeof adminRoutes>[0])]
    const table = new RouteTable<Route>()
    const polkaRouter = polka()
    for (const route of declared) {
      table.add(route.method, route.path, route)
      polkaRouter.add(route.method, route.path, route as unknown as polka.Middleware)
    }
    const urls = new Set<string>(['/', '//', '', '/v1', '/v1/', '/nowhere/at/all'])
    for (const { path } of declared) {
      for (const value of ['abc', 'a%20b', '']) {
        const filled = path.replace(/:\w+/g, value)
        for (const url of [filled, `${filled}/`, `${filled}//`, `/${filled}`, `${filled}/extra`, filled.replace(/\/[^/]*$/, ''), `${filled}?q=1&q=2`, `${filled}/?x=/y/`]) urls.add(url)
      }
    }
    const differing: string[] = []
    for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      for (const url of urls) {
        const found = table.find(method, url)
        const expected = polkaRouter.find(method as Parameters<typeof polkaRouter.find>[0], url.split('?')[0])
        const ours = found && { route: found.handler, params: found.params }
        const theirs = expected ? { route: expected.handlers[0] as unknown as Route, params: expected.params } : null
        if (JSON.stringify(ours) !== JSON.stringify(theirs) || ours?.route !== theirs?.route) differing.push(`${method} ${url}`)
      }
    }
    expect(urls.size).toBeGreaterThan(300)
    expect(differing).toEqual([])
  })
})
