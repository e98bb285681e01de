// GET /metrics: off unless TAXATLAS_METRICS_TOKEN is set (404, nothing collected), and then only
// for a scraper sending the token; it counts requests by route and status with their latencies,
// reply-cache hits, the snapshot in service and its age, the store's operations and the nodes.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { gaOrder, startPortabilityServer, type PortabilityServer } from './support/portability-server.ts'

const TOKEN = 'scrape-token-0123456789abcdef'

let server: PortabilityServer
let plain: PortabilityServer

beforeAll(async () => {
  server = await startPortabilityServer(inject('mirrorUrl'), { TAXATLAS_METRICS_TOKEN: TOKEN })
  plain = await startPortabilityServer(inject('mirrorUrl'))
})
afterAll(async () => {
  await server?.dispose()
  await plain?.dispose()
})

const scrape = async (target: PortabilityServer, authorization?: string) => {
  const response = await fetch(`${target.url}/metrics`, { headers: authorization ? { authorization } : {} })
  return { status: response.status, type: response.headers.get('content-type'), nosniff: response.headers.get('x-content-type-options'), text: await response.text() }
}

/** The value of one sample line, by its name and labels as written. */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? null : Number(line.slice(series.length + 1))
}

describe('metrics', () => {
  it('do not exist unless turned on', async () => {
    expect((await scrape(plain)).status).toBe(404)
    expect((await scrape(plain, `Bearer ${TOKEN}`)).status).toBe(404)
  })

  it('answer only a scraper with the token', async () => {
    const missing = await scrape(server)
    expect(missing.status).toBe(401)
    expect(missing.text).not.toContain('taxatlas_')
    expect((await scrape(server, 'Bearer not-the-token-at-all-000')).status).toBe(401)
    const granted = await scrape(server, `Bearer ${TOKEN}`)
    expect(granted.status).toBe(200)
    expect(granted.type).toContain('text/plain')
    expect(granted.nosniff).toBe('nosniff')
  })

  it('count requests by route and status, reply-cache hits, the snapshot, the store and the nodes', async () => {
    const { api_key: key } = await server.createAccount('enterprise')
    for (let i = 0; i < 3; i++) expect((await fetch(`${server.url}/v1/tax/ga?zip=30303`, { headers: { 'X-API-Key': key } })).status).toBe(200)
    expect((await fetch(`${server.url}/v1/tax/ga?zip=00000`, { headers: { 'X-API-Key': key } })).status).toBe(404)
    expect((await server.call(key, 'POST', '/v1/portability/orders', gaOrder('metered'))).status).toBe(201)

    const { text } = await scrape(server, `Bearer ${TOKEN}`)
    expect(sample(text, 'taxatlas_http_requests_total{route="/v1/tax/:state",method="GET",status="200"}')).toBe(3)
    expect(sample(text, 'taxatlas_http_requests_total{route="/v1/tax/:state",method="GET",status="404"}')).toBe(1)
    expect(sample(text, 'taxatlas_http_request_duration_seconds_count{route="/v1/tax/:state",method="GET",status="200"}')).toBe(3)
    expect(sample(text, 'taxatlas_http_requests_total{route="/v1/portability/orders",method="POST",status="201"}')).toBe(1)
    // The first lookup of the URL filled the cache, the next two were answered from it.
    expect(sample(text, 'taxatlas_reply_cache_lookups_total{result="hit"}')).toBe(2)
    expect(sample(text, 'taxatlas_reply_cache_lookups_total{result="miss"}')).toBe(2)
    const snapshot = server.running.snapshots.current
    expect(sample(text, `taxatlas_snapshot_info{snapshot="${snapshot.id}"}`)).toBe(1)
    const age = sample(text, 'taxatlas_snapshot_age_seconds')!
    expect(age).toBe((server.clock.now() - Date.parse(snapshot.manifest.generated_at)) / 1000)
    const engine = process.env.TAXATLAS_TEST_STORE === 'postgres' ? 'postgres' : 'duckdb'
    expect(sample(text, `taxatlas_store_operation_duration_seconds_count{engine="${engine}",operation="transactions.save"}`)).toBe(1)
    expect(sample(text, `taxatlas_store_nodes{engine="${engine}"}`)).toBe(1)
    expect(text).toContain('taxatlas_process_resident_memory_bytes')
  })
})
