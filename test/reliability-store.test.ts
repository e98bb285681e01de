// The store's faults, each done to a real server process from outside, as an operator, a clean-up
// job or a second process would do them, and judged by what clients and the operator see:
// - its file removed while the server runs (rm), and moved away and back;
// - the next start on a path whose store was removed: no empty store is created unless told;
// - the file locked by another process when the server starts, then released;
// - the file damaged (a block overwritten) or truncated when the server starts, then restored;
// - the open file truncated, or an older copy written over it, in place while the server runs;
// - the file removed and put back by `admin recover-store` from the running server's descriptor.
import { existsSync } from 'node:fs'
import { copyFile, open, readFile, rename, rm, truncate } from 'node:fs/promises'
import path from 'node:path'
import { execa } from 'execa'
import { describe, expect, it } from 'vitest'
import { ErrorBody } from '../server/base/errors.ts'
import { HealthBody } from '../server/routes/health.ts'
import { FILE_LOST_MESSAGE } from '../server/store/store-supervisor.ts'
import { markerPath } from '../server/store/store-marker.ts'
import { STORE_UNAVAILABLE_MESSAGE } from '../server/store/store.ts'
import { keyCaller, type ServerProcess } from './support/reliability-server-process.ts'
import { lockStore } from './support/reliability-store-locker.ts'
import { PROJECT_ROOT } from './support/shared.ts'
import { storeProcessSuite } from './support/store-process-suite.ts'

// Checks and retries a test can wait for: identity every 100 ms, attempts at most 1 s apart.
const FAST = { TAXATLAS_STORE_CHECK_MS: '100', TAXATLAS_STORE_RETRY_MAX_MS: '1000' }

const suite = storeProcessSuite('reliability-store', FAST)
const { start } = suite

const utcDay = (daysBack: number) => new Date(Date.now() - daysBack * 86_400_000).toISOString().slice(0, 10)
const order = (id: string) => ({ transaction_id: id, transaction_date: utcDay(3), to_zip: '30303', to_state: 'GA', amount: '19.99', shipping: '0', sales_tax: '1.60' })

async function health(server: ServerProcess) {
  const response = await fetch(`${server.url}/healthz`)
  return { status: response.status, body: HealthBody.parse(await response.json()) }
}

const eventsOf = (server: ServerProcess, event: string) => server.events().filter((e) => e.event === event)

/** A store with one account and one order, made by a server that then stopped; its key. */
async function storeWithAccount(storePath: string): Promise<string> {
  const server = await start(storePath)
  const { api_key: key } = await server.createAccount('enterprise')
  expect((await keyCaller(server, key)('POST', '/v1/portability/orders', order('kept-1'))).status).toBe(201)
  expect(await server.stop()).toBe(0)
  return key
}

describe('the store file removed while the server runs', () => {
  it('refuses every write with 503 STORE_FILE_LOST and says so once in the log, while keys and lookups keep working', async () => {
    const storePath = path.join(suite.tmp, 'removed', 'taxatlas.duckdb')
    // A first start on an empty directory creates the store, and the marker beside it.
    const server = await start(storePath)
    expect(existsSync(storePath)).toBe(true)
    expect(JSON.parse(await readFile(markerPath(storePath), 'utf8'))).toMatchObject({ created_at: expect.any(String), pid: server.pid })
    const { api_key: key } = await server.createAccount('enterprise')
    const call = keyCaller(server, key)
    expect((await call('POST', '/v1/portability/orders', order('before-1'))).status).toBe(201)

    await rm(storePath)
    const refused = [
      await call('POST', '/v1/portability/orders', order('after-1')),
      await call('PUT', '/v1/portability/nexus', { regions: [{ state: 'GA' }] }),
      await call('POST', '/v1/portability/transactions/backfill', JSON.stringify(order('after-2')), 'application/x-ndjson'),
    ]
    for (const response of refused) {
      expect(response.status, response.text).toBe(503)
      expect(response.headers.get('retry-after')).toBe('30')
      expect(ErrorBody.parse(response.body).error).toMatchObject({ code: 'STORE_FILE_LOST', message: FILE_LOST_MESSAGE })
      expect(response.text).not.toContain(storePath)
    }
    expect((await server.admin('POST', '/admin/accounts', { name: 'after', tier: 'starter' })).status).toBe(503)

    // Keys are still checked and lookups answered; what was acknowledged still reads back.
    for (let i = 0; i < 5; i++) expect((await call('GET', '/v1/tax/ga?zip=30303')).status).toBe(200)
    expect((await call('GET', '/v1/portability/orders/before-1')).status).toBe(200)
    expect((await call('GET', '/v1/account')).status).toBe(200)
    const degraded = await health(server)
    expect(degraded.status).toBe(503)
    expect(degraded.body).toMatchObject({ status: 'degraded', store: { status: 'degraded', problem: 'file_lost' }, snapshot: { status: 'ok' } })

    // One error line, not one per check or per refused write.
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(eventsOf(server, 'store_file_lost')).toEqual([expect.objectContaining({ level: 'error', store: storePath, change: 'missing' })])
    expect(existsSync(storePath)).toBe(false)
    expect(await server.stop()).toBe(0)
  })

  it('on the next start, creates no empty store where one was: key routes answer 503 until the file is back, or --init is given', async () => {
    const storePath = path.join(suite.tmp, 'removed', 'taxatlas.duckdb')
    expect(existsSync(markerPath(storePath))).toBe(true)
    const server = await start(storePath, { waitForStore: false })
    await expect.poll(() => eventsOf(server, 'store_failed').length).toBe(1)
    expect(eventsOf(server, 'store_failed')[0]).toMatchObject({ level: 'error', problem: 'missing', reason: expect.stringMatching(/is missing, but a store was created there on .*--init/) })
    const response = await keyCaller(server, 'tx_live_any')('GET', '/v1/account')
    expect(response.status).toBe(503)
    expect(ErrorBody.parse(response.body).error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: STORE_UNAVAILABLE_MESSAGE })
    expect(Number(response.headers.get('retry-after'))).toBeLessThanOrEqual(1)
    expect((await health(server)).body.store).toMatchObject({ status: 'degraded', problem: 'missing' })
    // Retried, never created.
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    expect(existsSync(storePath)).toBe(false)
    expect(await server.stop()).toBe(0)

    const initialized = await start(storePath, { env: { TAXATLAS_STORE_INIT: '1' } })
    expect(existsSync(storePath)).toBe(true)
    expect((await health(initialized)).body).toMatchObject({ status: 'ok', store: { status: 'ok' } })
    expect((await keyCaller(initialized, 'tx_live_from-the-lost-store')('GET', '/v1/account')).status).toBe(401)
    expect(await initialized.stop()).toBe(0)
  })

  it('moved away and back: writes are refused while it is away and accepted again once it is back', async () => {
    const storePath = path.join(suite.tmp, 'moved', 'taxatlas.duckdb')
    const server = await start(storePath)
    const { api_key: key } = await server.createAccount('enterprise')
    const call = keyCaller(server, key)
    expect((await call('POST', '/v1/portability/orders', order('before-move'))).status).toBe(201)
    await rename(storePath, `${storePath}.away`)
    expect((await call('POST', '/v1/portability/orders', order('while-away'))).status).toBe(503)
    await expect.poll(async () => (await health(server)).body.store).toMatchObject({ problem: 'file_lost' })
    await rename(`${storePath}.away`, storePath)
    expect((await call('POST', '/v1/portability/orders', order('after-move'))).status).toBe(201)
    expect((await health(server)).body).toMatchObject({ status: 'ok', store: { status: 'ok' } })
    await expect.poll(() => eventsOf(server, 'store_file_restored').length).toBe(1)
    expect(await server.stop()).toBe(0)

    const again = await start(storePath)
    const recall = keyCaller(again, key)
    for (const id of ['before-move', 'after-move']) expect((await recall('GET', `/v1/portability/orders/${id}`)).status, id).toBe(200)
    expect((await recall('GET', '/v1/portability/orders/while-away')).status).toBe(404)
    expect(await again.stop()).toBe(0)
  })
})

describe('the open store file damaged in place while the server runs', () => {
  /** Writes are refused as for a lost file, lookups answer, /healthz says why; the file put back in place lifts it. */
  async function refusedUntilRestored(server: ServerProcess, key: string, storePath: string, reason: RegExp, restore: () => Promise<void>) {
    const call = keyCaller(server, key)
    const refused = await call('POST', '/v1/portability/orders', order('while-damaged'))
    expect(refused.status, refused.text).toBe(503)
    expect(ErrorBody.parse(refused.body).error).toMatchObject({ code: 'STORE_FILE_LOST', message: FILE_LOST_MESSAGE })
    expect((await server.admin('POST', '/admin/accounts', { name: 'while damaged', tier: 'starter' })).status).toBe(503)
    for (let i = 0; i < 5; i++) expect((await call('GET', '/v1/tax/ga?zip=30303')).status).toBe(200)
    const degraded = await health(server)
    expect(degraded.status).toBe(503)
    expect(degraded.body.store).toMatchObject({ status: 'degraded', problem: 'file_lost', reason: expect.stringMatching(reason) })
    expect(eventsOf(server, 'store_file_lost')).toEqual([expect.objectContaining({ level: 'error', change: 'damaged' })])

    await restore()
    expect((await call('POST', '/v1/portability/orders', order('after-restore'))).status).toBe(201)
    expect((await health(server)).body.store).toEqual({ status: 'ok' })
    expect(await server.stop()).toBe(0)
    // Everything acknowledged is there after a restart; the refused write is not.
    const again = await start(storePath)
    const recall = keyCaller(again, key)
    for (const id of ['kept-1', 'before-damage', 'after-restore']) expect((await recall('GET', `/v1/portability/orders/${id}`)).status, id).toBe(200)
    expect((await recall('GET', '/v1/portability/orders/while-damaged')).status).toBe(404)
    expect(await again.stop()).toBe(0)
  }

  it('truncated to 0 bytes (truncate -s 0): writes refused with 503 STORE_FILE_LOST until its bytes are written back', async () => {
    const storePath = path.join(suite.tmp, 'truncated-open', 'taxatlas.duckdb')
    const key = await storeWithAccount(storePath)
    const server = await start(storePath)
    expect((await keyCaller(server, key)('POST', '/v1/portability/orders', order('before-damage'))).status).toBe(201)
    const bytes = await readFile(storePath)
    await execa('truncate', ['-s', '0', storePath])
    await refusedUntilRestored(server, key, storePath, /truncated/, async () => {
      const file = await open(storePath, 'r+')
      await file.write(bytes, 0, bytes.length, 0)
      await file.close()
    })
  })

  it('an older copy of itself written over it (cp, same inode): refused until the newer bytes are back', async () => {
    const storePath = path.join(suite.tmp, 'older-copy', 'taxatlas.duckdb')
    const key = await storeWithAccount(storePath)
    const older = `${storePath}.older`
    await copyFile(storePath, older)
    // One more run of the server: its shutdown checkpoints, so the file's header is newer.
    const between = await start(storePath)
    await between.createAccount('starter', 'between')
    expect(await between.stop()).toBe(0)
    const server = await start(storePath)
    expect((await keyCaller(server, key)('POST', '/v1/portability/orders', order('before-damage'))).status).toBe(201)
    const newer = await readFile(storePath)
    // cp onto an existing file truncates and writes it: the same inode, other bytes.
    await execa('cp', [older, storePath])
    await refusedUntilRestored(server, key, storePath, /older copy/, async () => {
      const file = await open(storePath, 'r+')
      await file.write(newer, 0, newer.length, 0)
      await file.close()
    })
  })
})

describe('admin recover-store', () => {
  it('puts back a removed store file from the running server; after a restart nothing acknowledged is lost', async () => {
    const storePath = path.join(suite.tmp, 'recovered', 'taxatlas.duckdb')
    const server = await start(storePath)
    const { api_key: key } = await server.createAccount('enterprise')
    const call = keyCaller(server, key)
    // Acknowledged after the last checkpoint: these are in the write-ahead log only.
    for (let i = 0; i < 20; i++) expect((await call('POST', '/v1/portability/orders', order(`logged-${i}`))).status).toBe(201)
    await rm(storePath)
    expect((await call('POST', '/v1/portability/orders', order('while-lost'))).status).toBe(503)

    const recovered = await execa('npm', ['run', '--silent', 'admin', '--', 'recover-store', '--json'], { cwd: PROJECT_ROOT, env: { TAXATLAS_STORE: storePath }, reject: false })
    expect(recovered.exitCode, recovered.stderr).toBe(0)
    expect(JSON.parse(recovered.stdout.trim().split('\n').at(-1)!)).toMatchObject({
      pid: server.pid,
      restart_needed: true,
      files: [{ file: storePath, outcome: 'restored' }, { file: `${storePath}.wal`, outcome: 'in_place' }],
    })
    // Still refused: the server's open file is not the one at the path until it restarts.
    expect((await call('POST', '/v1/portability/orders', order('while-lost'))).status).toBe(503)
    // The shutdown keeps the log instead of checkpointing it into the removed file.
    expect(await server.stop()).toBe(0)
    expect(existsSync(`${storePath}.wal`)).toBe(true)

    const again = await start(storePath)
    const recall = keyCaller(again, key)
    for (let i = 0; i < 20; i++) expect((await recall('GET', `/v1/portability/orders/logged-${i}`)).status, `logged-${i}`).toBe(200)
    expect((await recall('GET', '/v1/portability/orders/while-lost')).status).toBe(404)
    expect((await recall('POST', '/v1/portability/orders', order('after-recovery'))).status).toBe(201)
    expect(await again.stop()).toBe(0)
  })
})

describe('a store another process holds when the server starts', () => {
  it('is reported as locked by that process, key routes answer 503, and it opens on its own once released', async () => {
    const storePath = path.join(suite.tmp, 'locked', 'taxatlas.duckdb')
    const key = await storeWithAccount(storePath)
    const locker = await lockStore(storePath)
    const server = await start(storePath, { waitForStore: false })
    await expect.poll(() => eventsOf(server, 'store_failed').length).toBe(1)
    expect(eventsOf(server, 'store_failed')[0]).toMatchObject({ level: 'error', problem: 'locked', reason: expect.stringContaining(`locked by another process (pid ${locker.pid})`) })
    const call = keyCaller(server, key)
    const refused = await call('GET', '/v1/tax/ga?zip=30303')
    expect(refused.status).toBe(503)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(1)
    const degraded = await health(server)
    expect(degraded.status).toBe(503)
    expect(degraded.body.store).toMatchObject({ status: 'degraded', problem: 'locked' })
    // Retried every second meanwhile, and not logged again for it.
    await new Promise((resolve) => setTimeout(resolve, 2_500))
    expect(eventsOf(server, 'store_failed')).toHaveLength(1)

    await locker.release()
    await expect.poll(async () => (await call('GET', '/v1/tax/ga?zip=30303')).status, { interval: 100 }).toBe(200)
    expect((await call('GET', '/v1/portability/orders/kept-1')).status).toBe(200)
    expect((await call('POST', '/v1/portability/orders', order('after-lock'))).status).toBe(201)
    await expect.poll(() => eventsOf(server, 'store_ready').length).toBe(1)
    expect(Number(eventsOf(server, 'store_ready')[0].attempts)).toBeGreaterThan(1)
    expect(await health(server)).toMatchObject({ status: 200, body: { status: 'ok', store: { status: 'ok' } } })
    expect(await server.stop()).toBe(0)
  })
})

describe('a damaged store file when the server starts', () => {
  it('a block overwritten or the file truncated is reported as unreadable (not as locked, not as a write failure), and opens once the file is restored', async () => {
    const storePath = path.join(suite.tmp, 'damaged', 'taxatlas.duckdb')
    const key = await storeWithAccount(storePath)
    const good = `${storePath}.good`
    await copyFile(storePath, good)

    // One of DuckDB's database headers overwritten (its checksum no longer matches).
    const file = await open(storePath, 'r+')
    await file.write(Buffer.alloc(4_096, 0xab), 0, 4_096, 4_096)
    await file.close()
    const damaged = await start(storePath, { waitForStore: false })
    await expect.poll(() => eventsOf(damaged, 'store_failed').length).toBe(1)
    expect(eventsOf(damaged, 'store_failed')[0]).toMatchObject({ problem: 'unreadable', reason: expect.stringMatching(/cannot be read as a store \(damaged.*Corrupt database file/) })
    expect((await keyCaller(damaged, key)('GET', '/v1/account')).status).toBe(503)
    expect((await health(damaged)).body.store).toMatchObject({ status: 'degraded', problem: 'unreadable' })
    expect(await damaged.stop()).toBe(0)

    await copyFile(good, storePath)
    await truncate(storePath, 5_000)
    const truncated = await start(storePath, { waitForStore: false })
    await expect.poll(() => eventsOf(truncated, 'store_failed').length).toBe(1)
    expect(eventsOf(truncated, 'store_failed')[0]).toMatchObject({ problem: 'unreadable', reason: expect.stringMatching(/cannot be read as a store/) })
    expect(eventsOf(truncated, 'store_write_refused')).toEqual([])

    // Restored from the copy while the server retries: it opens without a restart.
    await copyFile(good, storePath)
    const call = keyCaller(truncated, key)
    await expect.poll(async () => (await call('GET', '/v1/account')).status, { interval: 100 }).toBe(200)
    expect((await call('GET', '/v1/portability/orders/kept-1')).status).toBe(200)
    expect(await truncated.stop()).toBe(0)
  })
})
