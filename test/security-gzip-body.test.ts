// A backfill announced as gzip whose body is not gzip must be refused, never stop the server.
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
