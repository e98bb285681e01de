// The reply cache of GET /v1/tax/{state} (server/http/reply-cache.ts) through a real server: a
// repeat answers the same bytes and is still authenticated and counted; full answers (billing) are
// never kept; a snapshot swap and a new UTC day each drop what was kept.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { ENTRY_RECORD_BYTES, MAX_CACHED_URL, ReplyCache } from '../server/http/reply-cache.ts'
import { readServerSettings } from '../server/settings.ts'
import { pointTo } from './support/server-snapshot.ts'
import { startLookupServer, type LookupServer } from './support/lookup-server.ts'
import { lookupArtifacts, type LookupArtifacts } from './support/lookup-snapshots.ts'
import { manualClock } from './support/server-harness.ts'

let artifacts: LookupArtifacts
let lookup: LookupServer

beforeAll(async () => {
  artifacts = await lookupArtifacts(inject('mirrorUrl'))
  lookup = await startLookupServer(artifacts)
})
afterAll(async () => {
  await lookup?.close()
})

const text = async (path: string, key = lookup.key) => {
  const response = await fetch(`${lookup.server.url}${path}`, { headers: { 'X-API-Key': key } })
  return { status: response.status, mode: response.headers.get('x-service-mode'), text: await response.text() }
}
const used = async () => (await lookup.get('/v1/account')).body.quota.used as number

describe('the lookup reply cache', () => {
  it('a repeat answers the same bytes, and is counted like the first', async () => {
    const before = await used()
    const first = await text('/v1/tax/wa?zip=98101')
    const again = await text('/v1/tax/wa?zip=98101')
    expect(first.status).toBe(200)
    expect(again).toEqual(first)
    expect(JSON.parse(again.text).rate.zip).toBe('98101')
    expect(await used()).toBe(before + 2)
  })

  it("a repeat carries every header of a first answer, with its own request id and the key's rate limit", async () => {
    const headersOf = async () => (await fetch(`${lookup.server.url}/v1/tax/wa?zip=98004`, { headers: { 'X-API-Key': lookup.key } })).headers
    const first = await headersOf()
    const again = await headersOf()
    const names = (headers: Headers) => [...headers.keys()].filter((name) => name !== 'date').sort()
    expect(names(again)).toEqual(names(first))
    for (const name of ['x-content-type-options', 'content-security-policy', 'content-type', 'cache-control', 'x-service-mode', 'content-length', 'ratelimit-limit']) {
      expect(again.get(name), name).toBe(first.get(name))
    }
    expect(again.get('x-request-id')).not.toBe(first.get('x-request-id'))
    // One token taken from a full bucket on each request (the enterprise rate refills it between them).
    expect(again.get('ratelimit-remaining')).toBe(String(Number(again.get('ratelimit-limit')) - 1))
    expect(again.get('ratelimit-reset')).toBe(first.get('ratelimit-reset'))
  })

  it('a repeat is authenticated every time: a key revoked after it was answered is refused', async () => {
    const other = await lookup.server.createAccount('enterprise', 'revoked later')
    expect((await text('/v1/tax/wa?zip=98101', other.api_key)).status).toBe(200)
    expect((await lookup.server.admin('POST', `/admin/keys/${other.key_id}/revoke`)).status).toBe(200)
    const refused = await text('/v1/tax/wa?zip=98101', other.api_key)
    expect(refused.status).toBe(401)
    expect(JSON.parse(refused.text).error.code).toBe('UNAUTHORIZED')
  })

  it('full answers carry the billing of each request and are never kept', async () => {
    const first = JSON.parse((await text('/v1/tax/wa?zip=98101&mode=full')).text)
    const second = JSON.parse((await text('/v1/tax/wa?zip=98101&mode=full')).text)
    expect(second.billing.quota.used).toBe(first.billing.quota.used + 1)
  })

  it('errors are never kept: a repeat of a refused lookup is refused and not counted', async () => {
    const before = await used()
    expect((await text('/v1/tax/wa?zip=00000')).status).toBe(404)
    expect((await text('/v1/tax/wa?zip=00000')).status).toBe(404)
    expect(await used()).toBe(before)
  })

  it('a snapshot swap drops what was kept: the same URL answers from the snapshot now in service', async () => {
    // The earlier snapshot holds TX only: GA has no data in service there.
    expect((await text('/v1/tax/ga?zip=30303')).status).toBe(200)
    await pointTo(artifacts.dir, artifacts.earlierId)
    await lookup.server.running.reload('signal')
    try {
      const swapped = await text('/v1/tax/ga?zip=30303')
      expect(swapped.status).toBe(503)
      expect(JSON.parse(swapped.text).error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', state: 'GA' })
    } finally {
      await pointTo(artifacts.dir, artifacts.currentId)
      await lookup.server.running.reload('signal')
    }
    expect((await text('/v1/tax/ga?zip=30303')).status).toBe(200)
  })
})

describe('the reply cache and the UTC day', () => {
  it('the default date follows the clock: a new day is not answered from the day before', async () => {
    // GA 30303: Atlanta's rate changed on 2022-10-01 (0.08500 before, 0.08900 from then).
    const clock = manualClock('2022-09-30T23:59:00Z')
    const dated = await startLookupServer(artifacts, {}, clock)
    try {
      const rateOf = async () => (await dated.get('/v1/tax/ga?zip=30303')).body.rate.combined_rate
      expect(await rateOf()).toBe('0.08500')
      expect(await rateOf()).toBe('0.08500')
      clock.advance(2 * 60_000)
      expect(await rateOf()).toBe('0.08900')
    } finally {
      await dated.close()
    }
  })
})

describe('ReplyCache', () => {
  const reply = (text: string) => ({ status: 200, body: Buffer.from(text), headers: ['X-Service-Mode', 'simple'] })
  const NOW = Date.parse('2026-11-21T12:00:00Z')

  it('keeps replies within its byte budget, dropping the oldest first', () => {
    const url = (n: number) => `GET /v1/tax/wa?zip=9810${n}`
    // Room for three entries' bytes in the ring (3/4 of the budget).
    const cache = new ReplyCache(Math.ceil((3 * (url(1).length + 1_000) * 4) / 3) + 8)
    for (const n of [1, 2, 3, 4]) cache.set('s1', NOW, url(n), reply(String(n).repeat(1_000)))
    expect(cache.size).toBe(3)
    expect(cache.get('s1', NOW, 'GET /v1/tax/wa?zip=98101')).toBeUndefined()
    for (const n of [2, 3, 4]) {
      expect(cache.get('s1', NOW, url(n))).toEqual({ status: 200, body: Buffer.from(String(n).repeat(1_000)), headers: ['X-Service-Mode', 'simple', 'Content-Length', '1000'] })
    }
  })

  it('keeps the records of its entries within an eighth of the budget, however small the replies', () => {
    const cache = new ReplyCache(64 * 1024)
    for (let n = 0; n < 1_000; n++) cache.set('s1', NOW, `/v1/tax/wa?zip=${n}`, reply('{}'))
    expect(cache.size).toBe((64 * 1024) / 8 / ENTRY_RECORD_BYTES)
    expect(cache.get('s1', NOW, '/v1/tax/wa?zip=999')?.body.toString()).toBe('{}')
    expect(cache.get('s1', NOW, '/v1/tax/wa?zip=0')).toBeUndefined()
  })

  it('a body handed out stays as it was when the ring is written over', () => {
    // Room for one entry, and one record.
    const cache = new ReplyCache(8 * ENTRY_RECORD_BYTES)
    cache.set('s1', NOW, '/v1/tax/wa?zip=98101', reply('a'.repeat(600)))
    const hit = cache.get('s1', NOW, '/v1/tax/wa?zip=98101')!
    cache.set('s1', NOW, '/v1/tax/wa?zip=98102', reply('b'.repeat(600)))
    expect(cache.get('s1', NOW, '/v1/tax/wa?zip=98102')?.body.toString()).toBe('b'.repeat(600))
    expect(hit.body.toString()).toBe('a'.repeat(600))
    expect(cache.get('s1', NOW, '/v1/tax/wa?zip=98101')).toBeUndefined()
  })

  it('keeps no reply to a URL longer than MAX_CACHED_URL', () => {
    const cache = new ReplyCache(1 << 20)
    cache.set('s1', NOW, `/v1/tax/wa?zip=98101&x=${'x'.repeat(MAX_CACHED_URL)}`, reply('{}'))
    expect(cache.size).toBe(0)
  })

  it('keeps nothing with a budget of 0 (TAXATLAS_REPLY_CACHE_MB=0)', () => {
    const cache = new ReplyCache(0)
    cache.set('s1', NOW, 'GET /v1/tax/wa?zip=98101', reply('{}'))
    expect(cache.size).toBe(0)
    expect(cache.get('s1', NOW, 'GET /v1/tax/wa?zip=98101')).toBeUndefined()
  })

  it('forgets everything when asked with another snapshot or on another UTC day', () => {
    const cache = new ReplyCache(1 << 20)
    cache.set('s1', NOW, 'GET /a', reply('{}'))
    expect(cache.get('s1', NOW + 3_600_000, 'GET /a')).toBeDefined()
    expect(cache.get('s1', Date.parse('2026-11-22T00:00:00Z'), 'GET /a')).toBeUndefined()
    cache.set('s1', NOW, 'GET /a', reply('{}'))
    expect(cache.get('s2', NOW, 'GET /a')).toBeUndefined()
    expect(cache.size).toBe(0)
  })
})

describe('TAXATLAS_REPLY_CACHE_MB', () => {
  it('is read in MiB, defaults to 64, and refuses what is not a size', () => {
    expect(readServerSettings({}).replyCacheBytes).toBe(64 * 1024 * 1024)
    expect(readServerSettings({ TAXATLAS_REPLY_CACHE_MB: '0' }).replyCacheBytes).toBe(0)
    expect(() => readServerSettings({ TAXATLAS_REPLY_CACHE_MB: 'lots' })).toThrow(/TAXATLAS_REPLY_CACHE_MB/)
    expect(() => readServerSettings({ TAXATLAS_REPLY_CACHE_MB: '-1' })).toThrow(/TAXATLAS_REPLY_CACHE_MB/)
  })
})
