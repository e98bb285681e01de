// API keys and the admin token never reach the server's output or an error body. The server runs
// as its own process and every byte of its stdout and stderr is kept, over a run with accounts and
// keys created and revoked, every kind of authentication failure, keys sent in the wrong places,
// rate limiting, requests Node refuses before routing, and store write errors (RLIMIT_FSIZE).
import { createHash } from 'node:crypto'
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { KEY_PREFIX } from '../server/store/api-keys.ts'
import { limitProcess } from './support/process-limit.ts'
import { rawRequest } from './support/reliability-raw-http.ts'
import { startServerProcess, type ServerProcess } from './support/reliability-server-process.ts'
import { artifactsWithSnapshot } from './support/server-snapshot.ts'
import { tempDir } from './support/temp-dirs.ts'

let artifacts: { dir: string; id: string }
let storeDir: string
let server: ServerProcess

beforeAll(async () => {
  artifacts = await artifactsWithSnapshot(inject('mirrorUrl'))
  storeDir = await tempDir('security-secrets-store')
  server = await startServerProcess({ artifactsDir: artifacts.dir, storePath: path.join(storeDir, 'taxatlas.duckdb') })
})
afterAll(async () => {
  await server?.kill9()
  await rm(storeDir, { recursive: true, force: true })
  if (artifacts) await rm(artifacts.dir, { recursive: true, force: true })
})

/** The forms of a secret worth searching for: whole, without its prefix, past its displayed characters, and its sha256. */
function tracesOf(key: string): string[] {
  const secret = key.startsWith(KEY_PREFIX) ? key.slice(KEY_PREFIX.length) : key
  return [key, secret, secret.slice(4), createHash('sha256').update(key).digest('hex')]
}

describe('keys and tokens', () => {
  it('never appear in the server output, nor in any answer to a request that carried them in its headers', async () => {
    const created = await server.createAccount('starter', 'secrets a')
    const other = await server.createAccount('enterprise', 'secrets b')
    const extra = await (await server.admin('POST', '/admin/keys', { account_id: created.account_id })).json()
    expect((await server.admin('POST', `/admin/keys/${extra.key_id}/revoke`)).status).toBe(200)
    const { token } = await server.adminEndpoint()
    const key = created.api_key
    const wrong = [`${key}x`, key.slice(0, -1), key.toLowerCase(), `${KEY_PREFIX}${'A'.repeat(43)}`, extra.api_key]
    const secrets = [key, other.api_key, extra.api_key, token, ...wrong]

    const bodies: string[] = []
    const send = async (pathName: string, headers: Record<string, string>, init: RequestInit = {}) => {
      const response = await fetch(`${server.url}${pathName}`, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } })
      const text = await response.text()
      bodies.push(text)
      return response.status
    }

    // Accepted, in both headers.
    expect(await send('/v1/tax/ga?zip=30303', { 'X-API-Key': key })).toBe(200)
    expect(await send('/v1/account', { Authorization: `Bearer ${other.api_key}` })).toBe(200)
    // Every way to fail authentication: a revoked key, near misses, other schemes, conflicting headers.
    for (const bad of wrong) {
      expect(await send('/v1/tax/ga?zip=30303', { 'X-API-Key': bad })).toBe(401)
      expect(await send('/v1/account', { Authorization: `Bearer ${bad}` })).toBe(401)
      expect(await send('/taxjar/v2/nexus/regions', { Authorization: `Token token="${bad}"` })).toBe(401)
    }
    expect(await send('/v1/account', { Authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` })).toBe(401)
    expect(await send('/v1/account', { 'X-API-Key': wrong[0], Authorization: `Bearer ${key}` })).toBe(401)
    // The admin listener without its token, and with a key instead of it.
    const adminUrl = (await server.adminEndpoint()).url
    expect((await fetch(`${adminUrl}/admin/accounts`, { headers: { 'X-Admin-Token': key } })).status).toBe(403)
    expect((await fetch(`${adminUrl}/admin/accounts`, { headers: { 'X-Admin-Token': `${token}x` } })).status).toBe(403)
    // Validation errors and refusals while authenticated.
    expect(await send('/v1/tax/ga?lat=abc&lng=1', { 'X-API-Key': key })).toBe(422)
    expect(await send('/v1/portability/orders', { 'X-API-Key': key, 'Content-Type': 'application/json' }, { method: 'POST', body: '{"amount":' })).toBe(400)
    expect(await send('/v1/portability/orders', { 'X-API-Key': key, 'Content-Type': 'application/json' }, { method: 'POST', body: '{"amount":"x"}' })).toBe(422)
    expect(await send('/taxjar/v2/transactions/orders/none', { 'X-API-Key': key })).toBe(404)
    // The starter tier's burst (20) spent: 429s.
    const statuses: number[] = []
    for (let i = 0; i < 25; i++) statuses.push(await send('/v1/account', { 'X-API-Key': key }))
    expect(statuses).toContain(429)
    // Refused before routing: not valid HTTP, oversized headers.
    for (const request of [
      { method: 'GET', target: '/v1/account', headers: [['Host', 'x'], ['X-API-Key', key], ['Bad Header', 'x']] as [string, string][] },
      { method: 'GET', target: '/v1/account', headers: [['Host', 'x'], ['X-API-Key', key], ['X-Filler', 'f'.repeat(20_000)]] as [string, string][] },
    ]) {
      const response = await rawRequest(server.url, request)
      expect(response.status).toBeGreaterThanOrEqual(400)
      bodies.push(response.text)
    }
    // Store write errors (every file write of the process refused), then writes again.
    const refusingWrites = await limitProcess(server.pid, 'fsize', 0)
    const order = { transaction_id: 's-1', transaction_date: new Date().toISOString().slice(0, 10), to_zip: '30303', to_state: 'GA', amount: '1.00' }
    expect(await send('/v1/portability/orders', { 'X-API-Key': other.api_key, 'Content-Type': 'application/json' }, { method: 'POST', body: JSON.stringify(order) })).toBe(503)
    expect((await server.admin('POST', '/admin/accounts', { name: 'refused', tier: 'trial' })).status).toBe(503)
    await expect.poll(() => server.events().some((e) => e.event === 'usage_flush_failed')).toBe(true)
    await refusingWrites.lift()

    const output = server.output()
    expect(output).toContain('"status":401')
    expect(output).toContain('"status":429')
    expect(output).toContain('usage_flush_failed')
    for (const secret of secrets) {
      for (const trace of tracesOf(secret)) {
        expect(output.includes(trace), `server output contains ${trace.slice(0, 12)}…`).toBe(false)
        for (const body of bodies) expect(body.includes(trace), `an answer contains ${trace.slice(0, 12)}…: ${body.slice(0, 200)}`).toBe(false)
      }
    }
  })

  it('sent in the query string or the body by mistake, never reach the server output', async () => {
    const { api_key: key } = await server.createAccount('enterprise', 'secrets c')
    const headers = { 'X-API-Key': key }
    expect((await fetch(`${server.url}/v1/tax/ga?zip=30303&api_key=${key}`, { headers })).status).toBe(200)
    expect((await fetch(`${server.url}/v1/account?key=${key}`)).status).toBe(401)
    const body = JSON.stringify({ transaction_id: 'q-1', transaction_date: '2026-02-30', to_zip: '30303', to_state: 'GA', amount: '1.00', customer_id: key })
    expect((await fetch(`${server.url}/v1/portability/orders`, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body })).status).toBe(422)
    // As a path segment: the access log writes the path, with the key cut out. (A key in the
    // state's place is a wrong state the ZIP replaces: 200.)
    expect((await fetch(`${server.url}/v1/tax/${key}?zip=30303`, { headers })).status).toBe(200)
    for (const pathName of [`/v1/account/${key}`, `/${key}`, `/v1/tax/ga/${key}/x`]) {
      expect((await fetch(`${server.url}${pathName}`, { headers })).status).toBe(404)
    }
    await expect.poll(() => server.events().filter((e) => String(e.path).includes(`${KEY_PREFIX}[redacted]`)).length).toBe(4)
    for (const trace of tracesOf(key)) expect(server.output().includes(trace), trace.slice(0, 12)).toBe(false)
  })
})
