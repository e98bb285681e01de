// A stand-in for the Census Geocoder on a loopback port: answers `geographies/onelineaddress` in
// the API's JSON shape, or fails the way a real upstream does, as the test sets it.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { censusAnswer, CENSUS_MATCHES } from './geocoder-census-bodies.ts'

export type FakeGeocoderBehavior =
  | { kind: 'answer' }
  | { kind: 'status'; status: number; retryAfter?: string }
  /** no answer at all, or (afterHeaders) a 200 whose body stops half-way */
  | { kind: 'hang'; afterHeaders?: boolean }
  | { kind: 'body'; text: string }

export type FakeCensusGeocoder = {
  /** ends in /geocoder, as the real base URL does */
  baseUrl: string
  behavior: FakeGeocoderBehavior
  /** every request URL received */
  requests: URL[]
  close(): Promise<void>
}

const key = (address: string) => address.toUpperCase().replace(/\s+/g, ' ').trim()

export async function startFakeCensusGeocoder(): Promise<FakeCensusGeocoder> {
  const requests: URL[] = []
  const fake: FakeCensusGeocoder = { baseUrl: '', behavior: { kind: 'answer' }, requests, close: async () => {} }
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake')
    requests.push(url)
    const behavior = fake.behavior
    if (behavior.kind === 'hang') {
      if (behavior.afterHeaders) res.writeHead(200, { 'content-type': 'application/json' }).write('{"result": {"input": ')
      return
    }
    if (behavior.kind === 'status') {
      const headers: Record<string, string> = { 'content-type': 'text/html' }
      if (behavior.retryAfter !== undefined) headers['retry-after'] = behavior.retryAfter
      res.writeHead(behavior.status, headers).end(`<html><body>HTTP ${behavior.status}</body></html>`)
      return
    }
    if (behavior.kind === 'body') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(behavior.text)
      return
    }
    if (url.pathname !== '/geocoder/geographies/onelineaddress') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"errors":["not found"],"status":"404"}')
      return
    }
    const address = url.searchParams.get('address') ?? ''
    const body = censusAnswer(address, CENSUS_MATCHES[key(address)] ?? [])
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/geocoder`
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return fake
}

/** A loopback URL where nothing listens: the port was bound, then released. */
export async function closedPortUrl(): Promise<string> {
  const server = http.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${port}/geocoder`
}
