// The client's retries against a scripted fault server: 429 with and without Retry-After, 503,
// slow answers beyond the timeout, network failures; the waits it asks of the injected sleep,
// how many attempts it makes, and the Idempotency-Key it repeats on each retry of a POST.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RateLimitError, ServiceError, TaxatlasClient } from '../client/index.ts'
import { backoffSeconds, retryAfterSeconds } from '../client/retry-delay.ts'
import { errorEnvelope, startFaultServer, type FaultServer, type ScriptedAnswer } from './support/client-fault-server.ts'
import { recordingClient, rejection } from './support/client-recording.ts'

let fault: FaultServer
beforeAll(async () => {
  fault = await startFaultServer()
})
afterAll(() => fault?.close())

const HEALTH = { status: 'ok', snapshot_id: 's1', snapshot_generated_at: '2026-11-21T03:00:00Z', snapshot_loaded_at: '2026-11-21T04:00:00Z' }
const ok = (body: unknown = HEALTH): ScriptedAnswer => ({ status: 200, body })
const unavailable: ScriptedAnswer = { status: 503, body: errorEnvelope('SERVICE_UNAVAILABLE', 'store down') }
const rateLimited = (retryAfter?: string): ScriptedAnswer => ({
  status: 429,
  body: errorEnvelope('RATE_LIMITED', 'slow down'),
  headers: retryAfter === undefined ? {} : { 'Retry-After': retryAfter },
})

describe('the backoff schedule (spec 8)', () => {
  it('is min(2^attempt * 0.5, 30) seconds, without jitter', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map(backoffSeconds)).toEqual([0.5, 1, 2, 4, 8, 16, 30, 30])
  })

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-21T15:00:00Z')
    expect(retryAfterSeconds('7', now)).toBe(7)
    expect(retryAfterSeconds(' 1.5 ', now)).toBe(1.5)
    expect(retryAfterSeconds('Sat, 21 Nov 2026 15:00:12 GMT', now)).toBe(12)
    expect(retryAfterSeconds('Sat, 21 Nov 2026 14:00:00 GMT', now)).toBe(0)
    expect(retryAfterSeconds('soon', now)).toBeNull()
    expect(retryAfterSeconds(null, now)).toBeNull()
  })
})

describe('429', () => {
  it('without Retry-After waits 0.5, 1 and 2 s, then succeeds on the fourth attempt', async () => {
    fault.script(rateLimited(), rateLimited(), rateLimited(), ok())
    const { client, waits } = recordingClient(fault.url)
    expect(await client.health()).toEqual(HEALTH)
    expect(fault.requests).toHaveLength(4)
    expect(waits).toEqual([0.5, 1, 2])
  })

  it('with Retry-After waits exactly that long', async () => {
    fault.script(rateLimited('3'), rateLimited('1'), ok())
    const { client, waits } = recordingClient(fault.url)
    await client.health()
    expect(waits).toEqual([3, 1])
  })

  it('with an HTTP-date Retry-After waits until that date by the injected clock', async () => {
    fault.script(rateLimited('Sat, 21 Nov 2026 15:00:09 GMT'), ok())
    const { client, waits } = recordingClient(fault.url, { now: () => Date.parse('2026-11-21T15:00:00Z') })
    await client.health()
    expect(waits).toEqual([9])
  })

  it('throws RateLimitError with retryAfter after max_retries (3) retries', async () => {
    fault.script(rateLimited('2'), rateLimited('2'), rateLimited('2'), rateLimited('2'))
    const { client, waits } = recordingClient(fault.url)
    const error = await rejection(client.health())
    expect(error).toBeInstanceOf(RateLimitError)
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfter: 2, supportReference: 'ref-rate_limited', message: 'slow down' })
    expect(error.body).toEqual(errorEnvelope('RATE_LIMITED', 'slow down'))
    expect(fault.requests).toHaveLength(4)
    expect(waits).toEqual([2, 2, 2])
  })

  it('has retryAfter null when the server did not send it', async () => {
    fault.script(rateLimited())
    const error = await rejection(recordingClient(fault.url, { maxRetries: 0 }).client.health())
    expect(error).toBeInstanceOf(RateLimitError)
    expect(error.retryAfter).toBeNull()
  })
})

describe('5xx', () => {
  it('503 is retried with the backoff, and a 503 with Retry-After waits that long', async () => {
    fault.script(unavailable, { ...unavailable, headers: { 'Retry-After': '5' } }, ok())
    const { client, waits } = recordingClient(fault.url)
    await client.health()
    expect(fault.requests).toHaveLength(3)
    expect(waits).toEqual([0.5, 5])
  })

  it('throws ServiceError after the last attempt, with the code and support reference of the body', async () => {
    fault.script(unavailable, unavailable, unavailable, unavailable)
    const { client, waits } = recordingClient(fault.url)
    const error = await rejection(client.health())
    expect(error).toBeInstanceOf(ServiceError)
    expect(error).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', supportReference: 'ref-service_unavailable' })
    expect(waits).toEqual([0.5, 1, 2])
  })

  it('a malformed 502 (an HTML page from a proxy) is retried; its code comes from the status line, its reference from X-Request-Id', async () => {
    const page: ScriptedAnswer = { status: 502, body: '<html>Bad Gateway</html>', headers: { 'Content-Type': 'text/html' } }
    fault.script(page, page)
    const error = await rejection(recordingClient(fault.url, { maxRetries: 1 }).client.health())
    expect(fault.requests).toHaveLength(2)
    expect(error).toBeInstanceOf(ServiceError)
    expect(error).toMatchObject({ status: 502, code: 'BAD_GATEWAY', supportReference: 'req-2', body: '<html>Bad Gateway</html>' })
  })

  it('500 with an empty body is a ServiceError with body null', async () => {
    fault.script({ status: 500 })
    const error = await rejection(recordingClient(fault.url, { maxRetries: 0 }).client.health())
    expect(error).toMatchObject({ status: 500, code: 'INTERNAL_SERVER_ERROR', body: null })
  })

  it('maxRetries is configurable: 5 retries wait 0.5, 1, 2, 4, 8 s; 0 makes one attempt', async () => {
    fault.script(...Array(6).fill(unavailable))
    const five = recordingClient(fault.url, { maxRetries: 5 })
    await rejection(five.client.health())
    expect(fault.requests).toHaveLength(6)
    expect(five.waits).toEqual([0.5, 1, 2, 4, 8])

    fault.script(unavailable)
    const none = recordingClient(fault.url, { maxRetries: 0 })
    await rejection(none.client.health())
    expect(fault.requests).toHaveLength(1)
    expect(none.waits).toEqual([])
  })
})

describe('timeouts', () => {
  it('a response slower than the timeout is abandoned and retried', async () => {
    fault.script({ ...ok(), delayMs: 2_000 }, { ...ok(), delayMs: 2_000 }, ok())
    const { client, waits } = recordingClient(fault.url, { timeout: 0.2 })
    expect(await client.health()).toEqual(HEALTH)
    expect(fault.requests).toHaveLength(3)
    expect(waits).toEqual([0.5, 1])
  })

  it('a body that stalls after the headers counts against the timeout too', async () => {
    fault.script({ ...ok(), bodyDelayMs: 2_000 }, ok())
    const { client, waits } = recordingClient(fault.url, { timeout: 0.2 })
    expect(await client.health()).toEqual(HEALTH)
    expect(waits).toEqual([0.5])
  })

  it('after the last attempt throws ServiceError TIMEOUT with status null', async () => {
    fault.script(...Array(4).fill({ ...ok(), delayMs: 2_000 }))
    const { client, waits } = recordingClient(fault.url, { timeout: 0.2 })
    const error = await rejection(client.health())
    expect(error).toBeInstanceOf(ServiceError)
    expect(error).toMatchObject({ status: null, code: 'TIMEOUT', supportReference: null, body: null })
    expect(error.message).toContain('0.2 s')
    expect(fault.requests).toHaveLength(4)
    expect(waits).toEqual([0.5, 1, 2])
  })

  it('a per-call timeout overrides the client default', async () => {
    fault.script({ ...ok(), delayMs: 2_000 })
    const { client } = recordingClient(fault.url, { maxRetries: 0 })
    expect(await rejection(client.health({ timeout: 0.1 }))).toMatchObject({ code: 'TIMEOUT' })
  })
})

describe('network failures', () => {
  it('are retried, then thrown as ServiceError NETWORK_ERROR', async () => {
    const refusing: typeof fetch = async () => {
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }) })
    }
    const { client, waits, calls } = recordingClient(fault.url, { fetch: refusing })
    const error = await rejection(client.health())
    expect(calls()).toBe(4)
    expect(waits).toEqual([0.5, 1, 2])
    expect(error).toBeInstanceOf(ServiceError)
    expect(error).toMatchObject({ status: null, code: 'NETWORK_ERROR' })
    expect(error.message).toContain('ECONNREFUSED')
  })
})

describe('aborting a call', () => {
  it('rejects with the signal reason during a wait and makes no further attempt', async () => {
    fault.script(unavailable, ok())
    const controller = new AbortController()
    const client = new TaxatlasClient({
      baseUrl: fault.url,
      sleep: async () => controller.abort(new Error('caller gave up')),
    })
    await expect(client.health({ signal: controller.signal })).rejects.toThrow('caller gave up')
    expect(fault.requests).toHaveLength(1)
  })

  it('rejects with the signal reason mid-request, not as a timeout, and does not retry', async () => {
    fault.script({ ...ok(), delayMs: 2_000 }, ok())
    const controller = new AbortController()
    const reason = new Error('stop')
    setTimeout(() => controller.abort(reason), 100)
    const error = await rejection(recordingClient(fault.url).client.health({ signal: controller.signal }))
    expect(error).toBe(reason)
    expect(fault.requests).toHaveLength(1)
  })
})

describe('the default sleep', () => {
  it('really waits between attempts', async () => {
    fault.script(unavailable, ok())
    const client = new TaxatlasClient({ baseUrl: fault.url, maxRetries: 1 })
    const started = Date.now()
    await client.health()
    expect(Date.now() - started).toBeGreaterThanOrEqual(450)
  })
})

describe('Idempotency-Key', () => {
  const saved = { result: 'created', order: { transaction_id: 'o-1' } }

  it('is sent on a POST, the same on every retry, and new for the next call', async () => {
    fault.script(unavailable, rateLimited(), { status: 201, body: saved })
    const { client } = recordingClient(fault.url)
    expect(await client.createOrder({ transaction_id: 'o-1' })).toEqual(saved)
    const keys = fault.requests.map((r) => r.headers['idempotency-key'])
    expect(keys).toHaveLength(3)
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(new Set(keys).size).toBe(1)
    expect(fault.requests.map((r) => r.body)).toEqual(Array(3).fill(JSON.stringify({ transaction_id: 'o-1' })))

    fault.script({ status: 201, body: saved })
    await client.createOrder({ transaction_id: 'o-1' })
    expect(fault.requests[0].headers['idempotency-key']).not.toBe(keys[0])
  })

  it('can be chosen by the caller', async () => {
    fault.script(unavailable, { status: 201, body: saved })
    await recordingClient(fault.url).client.createOrder({ transaction_id: 'o-1' }, { idempotencyKey: 'order-o-1' })
    expect(fault.requests.map((r) => r.headers['idempotency-key'])).toEqual(['order-o-1', 'order-o-1'])
  })

  it('is not sent on GET or PUT', async () => {
    fault.script(ok(), ok({ regions: [] }))
    const { client } = recordingClient(fault.url)
    await client.health()
    await client.setNexus([])
    expect(fault.requests.map((r) => r.headers['idempotency-key'])).toEqual([undefined, undefined])
  })
})

describe('registering a webhook endpoint', () => {
  const created = { id: 'wh_1', url: 'https://hooks.example/taxatlas', status: 'enabled', secret: 'whsec_1' }

  it('is retried after a 429, which the server sends before acting', async () => {
    fault.script(rateLimited('1'), { status: 201, body: created })
    const { client, waits } = recordingClient(fault.url)
    expect(await client.createWebhook({ url: created.url })).toEqual(created)
    expect(waits).toEqual([1])
    expect(fault.requests).toHaveLength(2)
  })

  it('is not retried after a 503 or a timeout, which may follow a stored endpoint: a second one would be sent every change again', async () => {
    fault.script(unavailable, { status: 201, body: created })
    const { client, waits } = recordingClient(fault.url)
    const error = await rejection(client.createWebhook({ url: created.url }))
    expect(error).toBeInstanceOf(ServiceError)
    expect(error.status).toBe(503)
    expect(fault.requests).toHaveLength(1)
    expect(waits).toEqual([])

    fault.script({ status: 201, body: created, delayMs: 2_000 }, { status: 201, body: created })
    const slow = await rejection(client.createWebhook({ url: created.url }, { timeout: 0.2 }))
    expect(slow).toMatchObject({ code: 'TIMEOUT', status: null })
    expect(fault.requests).toHaveLength(1)
    expect(waits).toEqual([])
  })
})
