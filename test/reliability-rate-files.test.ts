// Faults in the files a refresh reads, each derived in the test from the real file and named after
// what goes wrong, published (or refused) by a real refresh into the artifacts a real server
// process serves, and judged by the server's answers and its freshness record:
// - a contradictory duplicate rate row (GA's DeKalb county row repeated at 4%, same window);
// - every row repeated ten or five times (agreeing duplicates; far more rows than the previous edition);
// - an aggregator row breaking the legal bounds (TX 78701 in an Avalara table dropped again).
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Manifest, StateRecord } from '../snapshot-contract/manifest.ts'
import { FreshnessEnvelope } from '../snapshot-contract/manifest.ts'
import { readCurrentId } from '../snapshot-contract/snapshot-store.ts'
import { startFaultMirror, type FaultMirror } from './support/fault-mirror.ts'
import { heldDrops } from './support/held-drops.ts'
import { pipelineSettings, runRefresh } from './support/refresh-run.ts'
import { keyCaller, startServerProcess, type KeyCall, type ServerProcess } from './support/reliability-server-process.ts'
import { sharedPath } from './support/shared.ts'
import { tempDir } from './support/temp-dirs.ts'

const GA_FILE = '/sst/GAR2026Q2FEB19.csv'
const TX_DROP = 'avalara-zip5/202512/TAXRATES_ZIP5_TX202512.csv'

let mirror: FaultMirror
let artifacts: string
let drops: string
let server: ServerProcess
let call: KeyCall
let storeDir: string
let day = 21

/** A real refresh of GA and TX into the served artifacts, a day later each time. */
async function refresh(extra: Record<string, string> = {}): Promise<Manifest> {
  const now = `2026-11-${day++}T03:00:00.000Z`
  const result = await runRefresh(pipelineSettings({ mirror: mirror.url, artifacts, drops, build: await tempDir('rate-files-build'), states: 'GA,TX', now, extra }))
  if (!result.manifest) throw new Error(`nothing published: ${result.reason}`)
  return result.manifest
}

const record = (manifest: Manifest, code: string) => manifest.states.find((s) => s.code === code) as StateRecord

/** Waits until the server serves `manifest`'s snapshot. */
async function served(manifest: Manifest): Promise<void> {
  await expect.poll(async () => (await (await fetch(`${server.url}/healthz`)).json()).snapshot_id).toBe(manifest.snapshot)
}

async function freshness(code: string) {
  const envelope = FreshnessEnvelope.parse(await (await fetch(`${server.url}/v1/freshness`)).json())
  return envelope.states.find((s) => s.code === code.toLowerCase())!
}

const rateOf = async (state: string, zip: string) => {
  const response = await call('GET', `/v1/tax/${state}?zip=${zip}`)
  return { status: response.status, rate: response.body?.rate?.combined_rate as string | undefined, warnings: (response.body?.meta?.warnings ?? []) as { code?: string }[] }
}

beforeAll(async () => {
  mirror = await startFaultMirror()
  artifacts = await tempDir('rate-files-artifacts')
  drops = await heldDrops('GA,TX', { copy: true })
  storeDir = await tempDir('rate-files-store')
  await refresh()
  server = await startServerProcess({ artifactsDir: artifacts, storePath: path.join(storeDir, 'taxatlas.duckdb'), env: { TAXATLAS_SNAPSHOT_POLL_MS: '200' } })
  call = keyCaller(server, (await server.createAccount('enterprise')).api_key)
})
afterAll(async () => {
  await server?.stop()
  await mirror?.close()
  for (const dir of [artifacts, drops, storeDir]) if (dir) await rm(dir, { recursive: true, force: true })
})

describe('a contradictory duplicate rate row', () => {
  it("GA's DeKalb county row repeated at 4% over the same window fails the state: DeKalb keeps its 7%, nothing is published from the file", async () => {
    const before = await rateOf('ga', '30030')
    expect(before).toMatchObject({ status: 200, rate: '0.07000' })
    const text = await readFile(sharedPath(`mirror${GA_FILE}`), 'utf8')
    const dekalb = text.split(/\r?\n/).find((line) => line.startsWith('13,00,089,'))!
    expect(dekalb).toBe('13,00,089,0.03,0.03,0.03,0.03,20110101,29991231')
    mirror.faults.set(GA_FILE, { kind: 'bytes', bytes: Buffer.from(`${text}${dekalb.replace(/0\.03/g, '0.04')}\n`) })
    const manifest = await refresh()
    mirror.faults.clear()

    const ga = record(manifest, 'GA')
    expect(ga.status).toBe('failed')
    expect(ga.notes.join(' ')).toMatch(/contradict each other \(same jurisdiction, overlapping windows, different rates\): line 132 \(county:089 at 0\.03000.*2011-01-01–open\) and line 450 \(county:089 at 0\.04000/)
    await served(manifest)
    expect(await rateOf('ga', '30030')).toMatchObject({ status: 200, rate: '0.07000' })
    expect((await freshness('GA')).status).toBe('failed')
  })
})

describe('a rate file whose every row is repeated', () => {
  it('ten times, or five, is far more rows than the previous edition: refused unless the operator accepts it, and then served collapsed, with a note', async () => {
    const text = await readFile(sharedPath(`mirror${GA_FILE}`), 'utf8')
    const lines = text.split(/\r?\n/).filter((line) => line !== '')
    const repeated = (times: number) => Buffer.from(`${lines.flatMap((line) => Array(times).fill(line)).join('\n')}\n`)
    const baseline = await rateOf('ga', '30303')

    // Ten times: ten times the bytes, refused before it is even parsed (TAXATLAS_SIZE_JUMP_LIMIT).
    mirror.faults.set(GA_FILE, { kind: 'bytes', bytes: repeated(10) })
    const tenTimes = await refresh()
    expect(record(tenTimes, 'GA').status).toBe('failed')
    expect(record(tenTimes, 'GA').notes.join(' ')).toMatch(/GAR2026Q2FEB19\.csv is [\d,]+ bytes, \d+\.\d times the/)

    // Five times: under the size limit, but five times the previous edition's rows.
    mirror.faults.set(GA_FILE, { kind: 'bytes', bytes: repeated(5) })
    const refused = await refresh()
    expect(record(refused, 'GA').status).toBe('failed')
    expect(record(refused, 'GA').notes.join(' ')).toMatch(new RegExp(`${lines.length * 5} rows read, more than 3× the ${lines.length} of the previous edition.*TAXATLAS_ACCEPT_ROW_GROWTH=GA`))
    await served(refused)
    expect(await rateOf('ga', '30303')).toMatchObject({ status: 200, rate: baseline.rate })

    const accepted = await refresh({ TAXATLAS_ACCEPT_ROW_GROWTH: 'GA' })
    mirror.faults.clear()
    const ga = record(accepted, 'GA')
    expect(['ok', 'changed']).toContain(ga.status)
    expect(ga.rows).toBe(lines.length)
    expect(ga.notes.join(' ')).toMatch(new RegExp(`${lines.length * 4} duplicate row\\(s\\) collapsed \\(same jurisdiction, window and rates as an earlier row; e\\.g\\. line 2 repeats line 1`))
    expect(ga.notes.join(' ')).toMatch(/accepted by the operator \(TAXATLAS_ACCEPT_ROW_GROWTH\)/)
    await served(accepted)
    expect(await rateOf('ga', '30303')).toMatchObject({ status: 200, rate: baseline.rate })
    expect(await rateOf('ga', '30030')).toMatchObject({ status: 200, rate: '0.07000' })
    expect((await freshness('GA')).rows).toBe(lines.length)
  })
})

describe('an aggregator row that breaks the legal bounds', () => {
  it("keeps the ZIP's previous answer with a warning, instead of a 404, and the freshness record counts it", async () => {
    const before = await rateOf('tx', '78701')
    expect(before).toMatchObject({ status: 200, rate: '0.08250' })
    const houston = await rateOf('tx', '77002')
    // The real TX table dropped again with 78701's special-district share making 20% (TX's bound: 15.25%).
    const text = await readFile(path.join(drops, TX_DROP), 'utf8')
    const row = text.split(/\r?\n/).find((line) => line.startsWith('TX,78701,'))!
    expect(row).toBe('TX,78701,AUSTIN,0.082500,0.062500,0.000000,0.010000,0.010000,0')
    await writeFile(path.join(drops, TX_DROP), text.replace(row, 'TX,78701,AUSTIN,0.200000,0.062500,0.000000,0.010000,0.127500,0'))
    const previous = (await readCurrentId(artifacts))!
    const manifest = await refresh()
    const tx = record(manifest, 'TX')
    expect(tx.status, JSON.stringify(tx.notes)).not.toBe('failed')
    expect(tx.withheld).toEqual([{ zip: '78701', reason: 'combined 0.20000 outside the legal bounds 0.00000–0.15250', carried_from: previous }])
    expect(tx.notes.join(' ')).toMatch(/1 ZIP\(s\) withheld, their previous answer kept/)
    await served(manifest)

    const answer = await rateOf('tx', '78701')
    expect(answer).toMatchObject({ status: 200, rate: '0.08250' })
    expect(answer.warnings).toContainEqual(expect.objectContaining({ code: 'zip_answer_carried_over', carried_from: previous }))
    // The rest of the state answers from the new edition.
    expect(await rateOf('tx', '77002')).toMatchObject({ status: 200, rate: houston.rate })
    expect((await freshness('TX')).withheld_rows).toBe(1)
    expect((await freshness('GA')).withheld_rows).toBe(0)
  })
})

describe('a rejected row in a new edition', () => {
  it("keeps the ZIP's previous answer, today and on earlier dates, and the carried ZIP does not fail the new edition's anchors", async () => {
    const original = await readFile(sharedPath('drops', TX_DROP), 'utf8')
    await writeFile(path.join(drops, TX_DROP), original)
    const row = original.split(/\r?\n/).find((line) => line.startsWith('TX,78701,'))!
    // The next month's table, as Avalara names it, with 78701's combined rate garbled (a spreadsheet's doing).
    const nextEdition = path.join(drops, 'avalara-zip5/202601/TAXRATES_ZIP5_TX202601.csv')
    await mkdir(path.dirname(nextEdition), { recursive: true })
    await writeFile(nextEdition, original.replace(row, row.replace(',0.082500,', ',abc,')))
    try {
      const houston = await rateOf('tx', '77002')
      const previous = (await readCurrentId(artifacts))!
      const manifest = await refresh()
      const tx = record(manifest, 'TX')
      expect(tx.status, JSON.stringify(tx.notes)).not.toMatch(/failed|anchor_regression/)
      expect(tx.edition).toBe('202601')
      expect(tx.withheld).toEqual([{ zip: '78701', reason: expect.stringMatching(/^row rejected: .*abc/), carried_from: previous }])
      await served(manifest)

      const answer = await rateOf('tx', '78701')
      expect(answer).toMatchObject({ status: 200, rate: '0.08250' })
      expect(answer.warnings).toContainEqual(expect.objectContaining({ code: 'zip_answer_carried_over', carried_from: previous }))
      const earlier = await call('GET', '/v1/tax/tx?zip=78701&as_of=2025-12-15')
      expect(earlier.status, earlier.text).toBe(200)
      expect(earlier.body.rate.combined_rate).toBe('0.08250')
      expect(await rateOf('tx', '77002')).toMatchObject({ status: 200, rate: houston.rate })
    } finally {
      await rm(path.dirname(nextEdition), { recursive: true, force: true })
    }
  })
})
