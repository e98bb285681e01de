// A backfill announced as gzip whose body is not gzip must be refused, never stop the server; a
// JSON body with any Content-Encoding is refused, never read as if it were plain.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { startPortabilityServer, type PortabilityServer } from './support/portability-server.ts'

let server: PortabilityServer
let key: string
beforeAll(async () => {
  server = await startPortabilityServer(inject('mirrorUrl'))
  key = (await server.createAccount('enterprise', 'gzip')).api_key
})
afterAll(() => server?.dispose())

describe('backfill with a corrupt gzip body', () => {
  it('answers 400 in the envelope and the server keeps answering', async () => {
    const response = await fetch(`${server.url}/v1/portability/transactions/backfill`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' },
      body: 'not gzip at all',
    })
    expect(response.status).toBe(400)
    expect((await response.json()).error.code).toBe('BAD_REQUEST')
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
  })
})

describe('an order sent with Content-Encoding: br', () => {
  it('is refused with 415 and nothing is stored, although its bytes happen to be plain JSON', async () => {
    const order = { transaction_id: 'encoded-br', transaction_date: '2026-01-15', to_zip: '30303', to_state: 'GA', amount: '10.00' }
    const response = await fetch(`${server.url}/v1/portability/orders`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'content-encoding': 'br' },
      body: JSON.stringify(order),
    })
    expect(response.status).toBe(415)
    expect((await response.json()).error).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', message: expect.stringMatching(/Content-Encoding br/) })
    expect((await fetch(`${server.url}/v1/portability/orders/encoded-br`, { headers: { 'x-api-key': key } })).status).toBe(404)
  })
})
