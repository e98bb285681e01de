// A full log disk: the server's standard output is a file on a tmpfs of its own, filled up while
// the server runs. Writing a log line fails with ENOSPC; the server must keep answering, drop and
// count the lines, say so in /healthz and /metrics, and write again once the disk has room.
import { readFile, rm } from 'node:fs/promises'
import path from 'node:path'
import { execa } from 'execa'
import { describe, expect, it } from 'vitest'
import { keyCaller, type ServerProcess } from './support/reliability-server-process.ts'
import { storeProcessSuite } from './support/store-process-suite.ts'

const suite = storeProcessSuite('log-disk', {}, { smallDisk: '256k' })
let server: ServerProcess | undefined
const METRICS_TOKEN = 'metrics-token-for-the-log-disk-test'

/** Fills the disk: writes until it refuses. */
async function fill(file: string): Promise<void> {
  await execa('dd', ['if=/dev/zero', `of=${file}`, 'bs=4k'], { reject: false })
}

const health = async () => (await fetch(`${server!.url}/healthz`)).json()
const droppedMetric = async () => {
  const text = await (await fetch(`${server!.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text()
  return Number(/^taxatlas_log_lines_dropped_total (\d+)$/m.exec(text)?.[1])
}

describe('the log disk full while the server runs', () => {
  it('keeps answering and storing, drops and counts log lines, reports it, and logs again once there is room', async () => {
    const logFile = path.join(suite.disk, 'server.log')
    server = await suite.start(path.join(suite.tmp, 'store', 'taxatlas.duckdb'), { stdoutFile: logFile, env: { TAXATLAS_METRICS_TOKEN: METRICS_TOKEN } })
    const { api_key: key } = await server.createAccount('enterprise')
    const call = keyCaller(server, key)
    expect((await call('GET', '/v1/tax/ga?zip=30303')).status).toBe(200)
    expect(await health()).toMatchObject({ status: 'ok', logs: { status: 'ok', dropped_lines: 0 } })

    const filler = path.join(suite.disk, 'filler')
    await fill(filler)
    const day = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10)
    for (let i = 0; i < 200; i++) {
      expect((await call('GET', '/v1/tax/ga?zip=30303')).status).toBe(200)
      if (i % 20 === 0) {
        const order = { transaction_id: `full-${i}`, transaction_date: day, to_zip: '30303', to_state: 'GA', amount: '10.00', shipping: '0', sales_tax: '0.80' }
        expect((await call('POST', '/v1/portability/orders', order)).status).toBe(201)
      }
    }
    // Lines are written every 50 ms: the last ones reach the full disk a moment later.
    await expect.poll(async () => (await health()).logs.status).toBe('degraded')
    await expect.poll(async () => (await health()).logs.dropped_lines).toBeGreaterThanOrEqual(200)
    const degraded = await health()
    // The log disk costs nothing of the service: /healthz stays 200 for a load balancer.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
    expect(degraded).toMatchObject({ status: 'ok', store: { status: 'ok' }, logs: { status: 'degraded', problem: 'write_failed', reason: 'ENOSPC' } })
    expect(degraded.logs.dropped_lines).toBeGreaterThanOrEqual(200)
    expect(await droppedMetric()).toBeGreaterThanOrEqual(degraded.logs.dropped_lines)

    await rm(filler)
    expect((await call('GET', '/v1/tax/ga?zip=30303')).status).toBe(200)
    await expect.poll(async () => (await health()).logs.status).toBe('ok')
    const recovered = await health()
    expect(recovered.logs.dropped_lines).toBeGreaterThanOrEqual(degraded.logs.dropped_lines)
    await expect.poll(() => server!.events().some((e) => e.event === 'log_lines_dropped' && e.reason === 'ENOSPC')).toBe(true)
    // Every line in the file is whole JSON: a line cut by the full disk is ended before the next.
    const lines = (await readFile(logFile, 'utf8')).split('\n').filter((line) => line !== '')
    const parsed = lines.filter((line) => {
      try {
        JSON.parse(line)
        return true
      } catch {
        return false
      }
    })
    expect(lines.length - parsed.length).toBeLessThanOrEqual(1)
    await expect.poll(() => server!.events().filter((e) => e.event === 'request' && e.path === '/v1/tax/ga').length).toBeGreaterThan(1)
    // Nothing acknowledged during the outage was lost.
    for (let i = 0; i < 200; i += 20) expect((await call('GET', `/v1/portability/orders/full-${i}`)).status).toBe(200)
    expect(await server.stop()).toBe(0)
    server = undefined
  })
})
