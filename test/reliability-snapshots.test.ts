// The snapshot's faults, each done on disk to the artifacts of a real server process and judged
// by what clients and the operator see:
// - the current snapshot missing or damaged when the server starts: it serves the newest valid
//   earlier one, logs an error and reports itself degraded until CURRENT names a valid one;
// - a byte changed in place in the served snapshot: SIGHUP notices it though CURRENT still names it;
// - index bytes damaged with a checksum that matches them: refused (never a 500, never another
//   rate), at a reload and at start-up; every offset section of rates.bin damaged row by row is
//   refused by the reader;
// - an empty CURRENT: logged once, then at the slow interval, not at every poll.
import { readdirSync } from 'node:fs'
import { open, readFile, rm, writeFile } from 'node:fs/promises'
import net from 'node:net'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { FormatError } from '../snapshot-contract/format.ts'
import { RateIndex } from '../snapshot-contract/rate-index.ts'
import { formatRate } from '../snapshot-contract/rate-units.ts'
import { pointerPath, snapshotDir } from '../snapshot-contract/snapshot-store.ts'
import type { Manifest } from '../snapshot-contract/manifest.ts'
import { HealthBody } from '../server/routes/health.ts'
import { limitProcess } from './support/process-limit.ts'
import { publishDamaged, sectionExtent, type Damage } from './support/reliability-damaged-snapshot.ts'
import { keyCaller, startServerProcess, type KeyCall, type ServerProcess } from './support/reliability-server-process.ts'
import { ratesOf } from './support/reliability-workload.ts'
import { artifactsWithSnapshot, pointTo, republish } from './support/server-snapshot.ts'
import { tempDir } from './support/temp-dirs.ts'

let artifacts: { dir: string; id: string }
let storeDir: string
const servers: ServerProcess[] = []

beforeAll(async () => {
  artifacts = await artifactsWithSnapshot(inject('mirrorUrl'))
  storeDir = await tempDir('reliability-snapshots-store')
})
afterAll(async () => {
  for (const server of servers) await server.kill9()
  await rm(storeDir, { recursive: true, force: true })
  if (artifacts) await rm(artifacts.dir, { recursive: true, force: true })
})

async function start(name: string, env: Record<string, string> = {}): Promise<{ server: ServerProcess; call: KeyCall }> {
  const server = await startServerProcess({ artifactsDir: artifacts.dir, storePath: path.join(storeDir, name, 'taxatlas.duckdb'), env: { TAXATLAS_SNAPSHOT_POLL_MS: '100', ...env } })
  servers.push(server)
  const { api_key: key } = await server.createAccount('enterprise')
  return { server, call: keyCaller(server, key) }
}

async function health(server: ServerProcess) {
  const response = await fetch(`${server.url}/healthz`)
  return { status: response.status, body: HealthBody.parse(await response.json()) }
}

const eventsOf = (server: ServerProcess, event: string) => server.events().filter((e) => e.event === event)
const TODAY = new Date().toISOString().slice(0, 10)
const ZIPS = ['30303', '30030', '06103', '19901']

/** What each ZIP answers now: status and combined rate. */
const answers = async (call: KeyCall) => Promise.all(ZIPS.map(async (zip) => {
  const response = await call('GET', `/v1/tax/${zip.startsWith('3') ? 'ga' : zip.startsWith('0') ? 'ct' : 'de'}?zip=${zip}`)
  return `${zip} ${response.status} ${response.body?.rate?.combined_rate}`
}))

describe('start-up when the current snapshot is missing or damaged', () => {
  it('serves the newest valid earlier snapshot, logs an error and reports degraded, until CURRENT names a valid one', async () => {
    const earlier = artifacts.id
    // A later snapshot CURRENT names, then removed (a clean-up run, a half-restored backup).
    await republish(artifacts.dir, earlier, `${earlier}-b`)
    await rm(snapshotDir(artifacts.dir, `${earlier}-b`), { recursive: true })
    const { server, call } = await start('fallback-missing')
    const degraded = await health(server)
    expect(degraded.status).toBe(503)
    expect(degraded.body).toMatchObject({ status: 'degraded', snapshot_id: earlier, snapshot: { status: 'degraded', problem: 'fallback' }, store: { status: 'ok' } })
    expect(eventsOf(server, 'snapshot_fallback')).toEqual([expect.objectContaining({ level: 'error', wanted: `${earlier}-b`, serving: earlier, reason: expect.stringMatching(/manifest\.json is missing/) })])
    const served = await answers(call)
    for (const answer of served) expect(answer).toMatch(/ 200 0\.\d{5}$/)
    // The poll does not try the missing snapshot again and again, nor log it every time.
    await new Promise((resolve) => setTimeout(resolve, 600))
    expect(eventsOf(server, 'snapshot_refused')).toEqual([])

    // A valid snapshot published: served, and the server is sound again.
    await republish(artifacts.dir, earlier, `${earlier}-c`)
    await expect.poll(async () => (await health(server)).body.snapshot_id).toBe(`${earlier}-c`)
    expect(await health(server)).toMatchObject({ status: 200, body: { status: 'ok', snapshot: { status: 'ok' } } })
    expect(await answers(call)).toEqual(served)
    expect(await server.stop()).toBe(0)

    // CURRENT names a snapshot whose rates.bin fails its checksum: the newest valid earlier one (-c) serves.
    await republish(artifacts.dir, `${earlier}-c`, `${earlier}-d`, { corrupt: true })
    const damaged = await start('fallback-damaged')
    expect((await health(damaged.server)).body).toMatchObject({ snapshot_id: `${earlier}-c`, snapshot: { problem: 'fallback', reason: expect.stringMatching(/rates\.bin sha256 .* does not match/) } })
    expect(await answers(damaged.call)).toEqual(served)
    expect(await damaged.server.stop()).toBe(0)

    // CURRENT empty: the newest valid snapshot serves.
    await writeFile(pointerPath(artifacts.dir), '')
    const empty = await start('fallback-empty')
    expect((await health(empty.server)).body).toMatchObject({ snapshot_id: `${earlier}-c`, snapshot: { problem: 'fallback', reason: expect.stringMatching(/CURRENT is missing or empty/) } })
    expect(await empty.server.stop()).toBe(0)
    await pointTo(artifacts.dir, `${earlier}-c`)
    artifacts.id = `${earlier}-c`
  })
})

describe('a byte changed in place in the served snapshot', () => {
  it('is noticed on SIGHUP although CURRENT still names it: logged, reported degraded, the verified bytes in memory still answer', async () => {
    const { server, call } = await start('in-place')
    const before = await answers(call)
    const ratesFile = path.join(snapshotDir(artifacts.dir, artifacts.id), 'rates.bin')
    const original = await readFile(ratesFile)
    const handle = await open(ratesFile, 'r+')
    await handle.write(Buffer.from([original[original.length >> 1] ^ 0xff]), 0, 1, original.length >> 1)
    await handle.close()

    process.kill(server.pid, 'SIGHUP')
    await expect.poll(() => eventsOf(server, 'snapshot_damaged').length).toBe(1)
    expect(eventsOf(server, 'snapshot_damaged')[0]).toMatchObject({ level: 'error', snapshot: artifacts.id, trigger: 'signal', memory: 'verified', reason: expect.stringMatching(/rates\.bin sha256 .* does not match/) })
    expect((await health(server)).body).toMatchObject({ status: 'degraded', snapshot: { status: 'degraded', problem: 'damaged_on_disk' } })
    expect(await answers(call)).toEqual(before)

    await writeFile(ratesFile, original)
    process.kill(server.pid, 'SIGHUP')
    await expect.poll(async () => (await health(server)).status).toBe(200)
    await expect.poll(() => eventsOf(server, 'snapshot_verified').length).toBeGreaterThanOrEqual(1)
    expect(await server.stop()).toBe(0)
  })
})

describe('a byte flipped in a history file of the served snapshot', () => {
  it('is reported on SIGHUP and refused at start-up like rates.bin; restored, as_of answers again without a restart', async () => {
    const manifest = JSON.parse(await readFile(path.join(snapshotDir(artifacts.dir, artifacts.id), 'manifest.json'), 'utf8')) as Manifest
    const layer = manifest.history.find((h) => h.states.some((s) => s.code === 'GA' && s.effective_through && s.effective_through <= '2019-01-01'))!
    const { server, call } = await start('history-flipped')
    const asOf = async () => call('GET', '/v1/tax/ga?zip=30303&as_of=2019-01-01')
    const before = await asOf()
    expect(before.status, before.text).toBe(200)
    const historyFile = path.join(snapshotDir(artifacts.dir, artifacts.id), layer.file.name)
    const original = await readFile(historyFile)
    const flipped = Buffer.from(original)
    flipped[flipped.length >> 1] ^= 0x01
    await writeFile(historyFile, flipped)
    try {
      process.kill(server.pid, 'SIGHUP')
      await expect.poll(() => eventsOf(server, 'snapshot_damaged').length).toBe(1)
      expect(eventsOf(server, 'snapshot_damaged')[0]).toMatchObject({ reason: expect.stringContaining(`${layer.file.name} sha256`) })
      expect((await health(server)).body).toMatchObject({ status: 'degraded', snapshot: { problem: 'damaged_on_disk' } })
      expect((await call('GET', '/v1/tax/ga?zip=30303')).status).toBe(200)

      // A start on it falls back to the earlier snapshot (published by the start-up test above).
      const restarted = await start('history-restart')
      expect((await health(restarted.server)).body.snapshot).toMatchObject({ status: 'degraded', problem: 'fallback', reason: expect.stringContaining(`${layer.file.name} sha256`) })
      expect(await restarted.server.stop()).toBe(0)
    } finally {
      await writeFile(historyFile, original)
    }
    process.kill(server.pid, 'SIGHUP')
    await expect.poll(async () => (await health(server)).status).toBe(200)
    const after = await asOf()
    expect(after.status).toBe(200)
    expect(after.body.rate.combined_rate).toBe(before.body.rate.combined_rate)
    expect(await server.stop()).toBe(0)
  })
})

describe('a server out of file descriptors', () => {
  it('does not take a CURRENT it cannot read for a missing one: nothing refused, the snapshot in service stays sound', async () => {
    const { server, call } = await start('no-descriptors')
    const { hostname, port } = new URL(server.url)
    const descriptors = await limitProcess(server.pid, 'nofile', readdirSync(`/proc/${server.pid}/fd`).length + 2)
    // Idle connections take the descriptors left; the pointer poll (every 100 ms) then gets EMFILE.
    // One more at each look: a descriptor freed later is taken again. Connections that arrive while
    // none is left are closed on arrival (libuv), so one the server held only for a moment then
    // (a read of CURRENT) frees up after they are gone; so does the setup's keep-alive connection.
    const sockets: net.Socket[] = []
    const connect = () => sockets.push(net.connect(Number(port), hostname).on('error', () => {}))
    for (let i = 0; i < 6; i++) connect()
    try {
      await expect.poll(() => (connect(), eventsOf(server, 'snapshot_pointer_unreadable').length)).toBeGreaterThan(0)
      expect(eventsOf(server, 'snapshot_pointer_unreadable')[0]).toMatchObject({ level: 'warn', reason: expect.stringMatching(/EMFILE/), serving: artifacts.id })
    } finally {
      for (const socket of sockets) socket.destroy()
      await descriptors.lift()
    }
    expect(eventsOf(server, 'snapshot_refused')).toEqual([])
    expect((await health(server)).body).toMatchObject({ status: 'ok', snapshot: { status: 'ok' }, snapshot_id: artifacts.id })
    expect((await call('GET', '/v1/tax/ga?zip=30303')).status).toBe(200)
    expect(await server.stop()).toBe(0)
  })
})

/** 30303's first stack key changed to a CT authority: a valid index, of the wrong state. */
async function crossStateStackDamage(): Promise<Damage> {
  const rates = await ratesOf(artifacts.dir, artifacts.id)
  const ctKey = rates.lookupZip('06103').find((e) => e.state === 'CT')!.candidates[0].stack[0]
  return {
    file: 'rates.bin',
    section: 's.key',
    // The first stack key of 30303's candidate now names a CT authority (a valid index, the wrong state).
    change: (bytes, at) => bytes.writeUInt32LE(ctKey, at(stackStart(bytes, '30303'))),
  }
}

/** The s.key row where 30303's first candidate's stack starts, read from the index's own sections. */
function stackStart(bytes: Buffer, zip: string): number {
  const zips = sectionExtent(bytes, 'z.zip')
  let row = 0
  while (bytes.readUInt32LE(zips.offset + row * 4) !== Number(zip)) row++
  const c0 = bytes.readUInt32LE(sectionExtent(bytes, 'z.c0').offset + row * 4)
  return bytes.readUInt32LE(sectionExtent(bytes, 'c.s0').offset + c0 * 4)
}

describe('index bytes damaged with a checksum that matches them', () => {
  it('are refused at a reload and at start-up: every lookup answers as before, none with a 500 or another rate', async () => {
    const { server, call } = await start('matching-checksum')
    const before = await answers(call)
    const damages: [string, Damage][] = [
      ['a stack naming another state’s authority', await crossStateStackDamage()],
      ['a ZIP whose candidates run past the table', { file: 'rates.bin', section: 'z.c0', change: (bytes, at) => bytes.writeUInt32LE(0xfffffff0, at(3)) }],
      ['a string offset past its bytes', { file: 'places.bin', section: 'p.name.o', change: (bytes, at) => bytes.writeUInt32LE(0x7fffffff, at(5)) }],
      ['a ring past the points', { file: 'shapes.bin', section: 'r.p0', change: (bytes, at) => bytes.writeUInt32LE(0x7fffffff, at(1)) }],
    ]
    for (const [i, [what, damage]] of damages.entries()) {
      const id = `${artifacts.id}-damaged-${i}`
      await publishDamaged(artifacts.dir, artifacts.id, id, damage)
      await expect.poll(() => eventsOf(server, 'snapshot_refused').find((e) => e.snapshot === id)).toBeDefined()
      expect(eventsOf(server, 'snapshot_refused').find((e) => e.snapshot === id)!.reason, what).toMatch(new RegExp(`${damage.file}: section`))
      expect(await answers(call), what).toEqual(before)
      expect((await health(server)).body.snapshot, what).toMatchObject({ status: 'degraded', problem: 'current_refused' })
    }
    expect(await server.stop()).toBe(0)

    // Started with CURRENT on the last damaged one: the valid snapshot before it serves.
    const restarted = await start('matching-checksum-start')
    expect((await health(restarted.server)).body).toMatchObject({ snapshot_id: artifacts.id, snapshot: { problem: 'fallback' } })
    expect(await answers(restarted.call)).toEqual(before)
    expect(await restarted.server.stop()).toBe(0)
    await pointTo(artifacts.dir, artifacts.id)
  })

  it('every offset and index section of rates.bin, damaged row by row, is refused by the reader (or, where a value stays valid, answers every ZIP as before)', async () => {
    const bytes = new Uint8Array(await readFile(path.join(snapshotDir(artifacts.dir, artifacts.id), 'rates.bin')))
    const original = new RateIndex(bytes)
    const answersOf = (index: RateIndex) =>
      Array.from({ length: index.zipEntryCount }, (_, i) => {
        const entry = index.entryAt(i)
        return `${entry.zip} ${entry.state} ${entry.candidates.map((c) => formatRate(index.combinedRate(c.stack, TODAY))).join(',')}`
      })
    const expected = answersOf(original)
    const sections = ['z.zip', 'z.state', 'z.c0', 'z.cn', 'c.s0', 'c.sn', 'c.cty', 'c.plc', 's.key', 'k.state', 'k.level', 'k.v0', 'k.vn', 'v.src', 'k.code.o', 'z.city.o', 'g.name.o', 'src.o']
    let seed = 23
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31)
    let refused = 0
    for (const section of sections) {
      const extent = sectionExtent(bytes, section)
      const width = extent.length / extent.count
      for (let trial = 0; trial < 25; trial++) {
        const damaged = new Uint8Array(new ArrayBuffer(bytes.length))
        damaged.set(bytes)
        const at = extent.offset + Math.floor(random() * extent.count) * width
        const view = new DataView(damaged.buffer)
        const value = Math.floor(random() * 2 ** (8 * width))
        if (width === 4) view.setUint32(at, value, true)
        else if (width === 2) view.setUint16(at, value, true)
        else view.setUint8(at, value)
        let index: RateIndex
        try {
          index = new RateIndex(damaged)
        } catch (error) {
          expect(error, `${section} at ${at}`).toBeInstanceOf(FormatError)
          refused++
          continue
        }
        expect(answersOf(index), `${section} at ${at} = ${value} was read as valid`).toEqual(expected)
      }
    }
    expect(refused).toBeGreaterThan(sections.length * 20)
  })
})

describe('a bad CURRENT pointer', () => {
  it('is logged once, then again only at the slow interval, not at every poll; the snapshot in service keeps answering', async () => {
    const { server, call } = await start('empty-pointer', { TAXATLAS_SNAPSHOT_REREPORT_MS: '2000' })
    const before = await answers(call)
    await writeFile(pointerPath(artifacts.dir), '')
    await expect.poll(() => eventsOf(server, 'snapshot_refused').length).toBeGreaterThanOrEqual(1)
    expect(eventsOf(server, 'snapshot_refused')[0]).toMatchObject({ level: 'error', snapshot: null, reason: 'CURRENT is missing or empty', serving: artifacts.id })
    expect((await health(server)).body.snapshot).toMatchObject({ status: 'degraded', problem: 'current_missing' })
    // Then again after the slow interval (2 s): the ~20 polls between (every 100 ms) logged nothing.
    // The gap is read from the lines' own times, which a slow test process does not shorten.
    await expect.poll(() => eventsOf(server, 'snapshot_refused').length).toBeGreaterThanOrEqual(2)
    const [first, second] = eventsOf(server, 'snapshot_refused').map((e) => Date.parse(String(e.time)))
    expect(second! - first!).toBeGreaterThan(1_500)
    expect(await answers(call)).toEqual(before)

    await pointTo(artifacts.dir, artifacts.id)
    await expect.poll(async () => (await health(server)).status).toBe(200)
    await expect.poll(() => eventsOf(server, 'snapshot_recovered').length).toBe(1)
    expect(await server.stop()).toBe(0)
  })
})
