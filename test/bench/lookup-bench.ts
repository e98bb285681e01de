// Lookup throughput for `make bench`: the bundled server under autocannon (50 connections,
// BENCH_SECONDS each, default 20) for ZIP, address, place and coordinate lookups over real ZIPs
// of several states, each held against a bare node:http server answering a body of the same size
// in the same run: the ratio is what the service costs beyond HTTP itself, on whatever machine.
// Each workload and the bare server take turns (ROUNDS each way), so a machine that gets busier
// or quieter during the run weighs on both sides of a ratio alike. The server runs as deployed,
// its reply cache on; ZIP and address lookups are then measured again on a server keeping no
// replies, shown for context.
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { execa } from 'execa'
import { PlaceIndex } from '../../snapshot-contract/place-index.ts'
import { RateIndex } from '../../snapshot-contract/rate-index.ts'
import { loadSnapshot, readCurrentId } from '../../snapshot-contract/snapshot-store.ts'
import { tempDir } from '../support/refresh-run.ts'
import { runLoad, type LoadPath } from '../support/reliability-load.ts'
import { PROJECT_ROOT } from '../support/shared.ts'
import type { Measure } from './measure.ts'

const PORT = 18_490
export const CONNECTIONS = 50
// On the shared 2-core machines this was measured on, the same server's CPU per request moves by
// ±20% from one second to the next: each side gets 20 s in eight 2.5 s turns, twice the turns of a
// 10 s run, to narrow what chance does to a ratio.
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 20)
const WARMUP_SECONDS = Math.min(2, SECONDS)
/** turns of the bare server and of a workload, taken in the order ABBA…, that share SECONDS */
export const ROUNDS = 8
const STATES = ['CA', 'IL', 'NY', 'TX', 'WA']
const LOOKUP_PATH = '/v1/tax/{state}'
const STREETS = ['Main St', 'Oak Ave', '1st St', 'Park Blvd', 'Washington St']
// The enterprise rate limit (10,000/s) would cap the load below what is measured: lifted here,
// the limiter still runs on every request.
const BENCH_TIERS = JSON.stringify({ enterprise: { rate_per_second: 10_000_000, burst: 10_000_000 } })

export type LoadRun = {
  target: string
  requestsPerSecond: number
  p50Ms: number
  p99Ms: number
  /** connection errors and timeouts */
  errors: number
  non2xx: number
  statusCodes: Record<string, number>
  ratioToBare: number
  /** CPU time of the server process (user + system) per answered request; null off Linux */
  serverCpuMicros: number | null
}

type Workload = { name: string; paths: string[]; minRatio: number }
/** A listening server under test: its URL, its process (for CPU time) and the headers it needs. */
export type Target = { url: string; child: ChildProcess; headers: Record<string, string> }

/**
 * `runs`: the bare server (all its turns), then one per measure. `uncachedRuns`: ZIP and address
 * lookups again on a server keeping no replies (TAXATLAS_REPLY_CACHE_MB=0), for context: what a
 * lookup costs when its URL was not asked before.
 */
export type LookupResults = { measures: Measure[]; runs: LoadRun[]; uncachedRuns: LoadRun[]; notes: string[] }

/** `postgresUrl`: also measure ZIP lookups on a server whose store is this PostgreSQL database. */
export async function lookupMeasures(artifacts: string, options: { postgresUrl?: string } = {}): Promise<LookupResults> {
  await execa('make', ['-s', 'build/server/main.mjs'], { cwd: PROJECT_ROOT })
  const taxatlas = await startTaxAtlas(artifacts, PORT)
  try {
    if (!(await servesLookups(taxatlas.url))) {
      return { measures: [], runs: [], uncachedRuns: [], notes: [`lookup bench skipped: the server does not serve ${LOOKUP_PATH} yet`] }
    }
    const workloads = await lookupWorkloads(artifacts)
    const notes = await sampleStatuses(taxatlas, workloads)
    const answer = await fetch(`${taxatlas.url}${workloads[0].paths[0]}`, { headers: taxatlas.headers })
    const answerBytes = Buffer.byteLength(await answer.text())
    if (!answer.ok) notes.push(`the sample answer sized for the bare server was HTTP ${answer.status}`)

    const bare = await startBareServer(answerBytes)
    try {
      await warm(bare, ['/'])
      const bareTurns: Load[] = []
      const alongsideBare = async (target: Target, paths: string[]) => {
        const { own, reference } = await takingTurns(target, paths, bare)
        bareTurns.push(reference)
        return { own, bareRate: reference.requestsPerSecond }
      }
      const measured: { own: Load; bareRate: number }[] = []
      for (const workload of workloads) measured.push(await alongsideBare(taxatlas, workload.paths))
      await stop(taxatlas.child)
      // The same ZIP workload on a node of a scaled-out deployment: lookups never wait on PostgreSQL.
      const onPostgres = options.postgresUrl ? { ...workloads[0], name: 'ZIP (PostgreSQL-backed node)' } : null
      if (onPostgres) {
        const node = await startTaxAtlas(artifacts, PORT + 6, { TAXATLAS_STORE: options.postgresUrl! })
        try {
          workloads.push(onPostgres)
          measured.push(await alongsideBare(node, onPostgres.paths))
        } finally {
          await stop(node.child)
        }
      }
      const uncachedRuns: LoadRun[] = []
      const uncached = await startTaxAtlas(artifacts, PORT + 2, { TAXATLAS_REPLY_CACHE_MB: '0' })
      try {
        for (const workload of workloads.slice(0, 2)) {
          const { own, bareRate } = await alongsideBare(uncached, workload.paths)
          uncachedRuns.push(toRun(`${workload.name} lookups, reply cache off (TAXATLAS_REPLY_CACHE_MB=0)`, own, bareRate))
        }
      } finally {
        await stop(uncached.child)
      }
      const allBare = merged(bareTurns)
      const runs = [toRun(`bare node:http, canned ${answerBytes}-byte JSON (all its turns)`, allBare, allBare.requestsPerSecond)]
      const measures: Measure[] = []
      workloads.forEach((workload, i) => {
        const run = toRun(`${workload.name} lookups (${workload.paths.length} paths)`, measured[i].own, measured[i].bareRate)
        runs.push(run)
        measures.push({ name: `${workload.name} lookups, req/s vs bare server`, value: run.ratioToBare, unit: '× bare', target: workload.minRatio, better: 'higher' })
        if (run.errors + run.non2xx > 0) notes.push(`${workload.name}: ${run.errors} errors, ${run.non2xx} non-2xx (${JSON.stringify(run.statusCodes)})`)
      })
      return { measures, runs, uncachedRuns, notes }
    } finally {
      await stop(bare.child)
    }
  } finally {
    await stop(taxatlas.child)
  }
}

/** The bundled server with the bench's snapshot and a fresh store, and an enterprise key for it. */
export async function startTaxAtlas(artifacts: string, port: number, settings: Record<string, string> = {}): Promise<Target> {
  for (const taken of [port, port + 1]) await assertPortFree(taken)
  const env = {
    ...process.env,
    ...settings,
    PORT: String(port),
    TAXATLAS_ADMIN_PORT: String(port + 1),
    TAXATLAS_ARTIFACTS: artifacts,
    TAXATLAS_STORE: settings.TAXATLAS_STORE ?? path.join(await tempDir('bench-lookup-store'), 'store.duckdb'),
    TAXATLAS_TIERS: BENCH_TIERS,
  }
  const child = stopOnExit(spawn(process.execPath, ['build/server/main.mjs'], { cwd: PROJECT_ROOT, env, stdio: 'ignore' }))
  const url = `http://127.0.0.1:${port}`
  try {
    await firstAnswer(`${url}/healthz`, performance.now() + 30_000)
    const created = await execa('npm', ['run', '-s', 'admin', '--', 'create-account', '--name', 'bench', '--tier', 'enterprise', '--json'], { cwd: PROJECT_ROOT, env })
    const { api_key: apiKey } = JSON.parse(created.stdout.trim().split('\n').at(-1)!) as { api_key: string }
    return { url, child, headers: { 'x-api-key': apiKey } }
  } catch (error) {
    await stop(child)
    throw error
  }
}

/** A server left running by a killed run would otherwise answer in place of the one started here. */
async function assertPortFree(port: number): Promise<void> {
  const probe = net.createServer()
  await new Promise<void>((resolve, reject) => {
    probe.once('error', () => reject(new Error(`port ${port} is in use (a server left by an earlier bench run?)`)))
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()))
  })
}

async function firstAnswer(url: string, deadline: number): Promise<void> {
  while (performance.now() < deadline) {
    if (await fetch(url).then((r) => r.ok, () => false)) return
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error(`no answer from ${url}`)
}

async function servesLookups(url: string): Promise<boolean> {
  const document = (await (await fetch(`${url}/openapi.json`)).json()) as { paths?: Record<string, unknown> }
  return Boolean(document.paths?.[LOOKUP_PATH])
}

/** Request paths built from every ZIP of STATES in the snapshot the server serves. */
async function lookupWorkloads(artifacts: string): Promise<Workload[]> {
  const loaded = await loadSnapshot(artifacts, (await readCurrentId(artifacts))!)
  const rates = new RateIndex(new Uint8Array(loaded.files['rates.bin']))
  const places = new PlaceIndex(new Uint8Array(loaded.files['places.bin']))
  const zip: string[] = []
  const address: string[] = []
  const place = new Set<string>()
  const coordinates: string[] = []
  for (const state of STATES) {
    const st = state.toLowerCase()
    for (const i of rates.entriesOfState(state)) {
      const entry = rates.entryAt(i)
      zip.push(`/v1/tax/${st}?zip=${entry.zip}`)
      if (entry.lat !== null && entry.lng !== null) coordinates.push(`/v1/tax/${st}?lat=${entry.lat.toFixed(6)}&lng=${entry.lng.toFixed(6)}`)
      if (!entry.city) continue
      const city = titleCase(entry.city)
      const street = `${100 + (i % 9_800)} ${STREETS[i % STREETS.length]}`
      address.push(`/v1/tax/${st}?address=${encodeURIComponent(`${street}, ${city}, ${state} ${entry.zip}`)}`)
      // A USPS city is not always a place (Bronx, Flushing): only names the place index knows.
      if (places.find(entry.city, state).length > 0) place.add(`/v1/tax/${st}?location=${encodeURIComponent(`${city}, ${state}`)}`)
    }
  }
  return [
    { name: 'ZIP', paths: zip, minRatio: 0.6 },
    { name: 'address', paths: address, minRatio: 0.35 },
    { name: 'place', paths: [...place], minRatio: 0.35 },
    { name: 'coordinate', paths: coordinates, minRatio: 0.35 },
  ]
}

const titleCase = (text: string) => text.toLowerCase().replace(/\b[a-z]/g, (c) => c.toUpperCase())

/** Asks a spread of each workload's paths once, so a route answering errors is named before the load. */
async function sampleStatuses(target: Target, workloads: Workload[]): Promise<string[]> {
  const notes: string[] = []
  for (const workload of workloads) {
    const step = Math.max(1, Math.floor(workload.paths.length / 40))
    const statuses: Record<number, number> = {}
    let asked = 0
    for (let i = 0; i < workload.paths.length; i += step, asked++) {
      const response = await fetch(`${target.url}${workload.paths[i]}`, { headers: target.headers })
      await response.arrayBuffer()
      statuses[response.status] = (statuses[response.status] ?? 0) + 1
    }
    if ((statuses[200] ?? 0) < asked) notes.push(`${workload.name}: sample of ${asked} paths answered ${JSON.stringify(statuses)}`)
  }
  return notes
}

/** A load's outcome, summed over the turns it was measured in. */
export type Load = {
  requestsPerSecond: number
  requests: number
  /** the median of the turns' medians, and the worst of their 99th percentiles */
  p50Ms: number
  p99Ms: number
  errors: number
  non2xx: number
  statusCodes: Record<string, number>
  /** server CPU time over the measured turns, in µs; null off Linux */
  serverCpu: number | null
  seconds: number
}

/**
 * Warms the server on the workload, then measures it and the bare server in ROUNDS turns each,
 * in the order ABBA… (bare first), every turn SECONDS / ROUNDS long. The bare server is asked
 * `barePaths`: a GET of / for GET workloads; a workload of POSTs sends it the same POSTs, so
 * both sides carry the same request bodies.
 */
export async function takingTurns(target: Target, paths: readonly LoadPath[], bare: Target, barePaths: readonly LoadPath[] = ['/']): Promise<{ own: Load; reference: Load }> {
  await warm(target, paths)
  const own: Load[] = []
  const reference: Load[] = []
  for (let turn = 0; turn < 2 * ROUNDS; turn++) {
    const bareNow = turn % 4 === 0 || turn % 4 === 3
    if (bareNow) reference.push(await measure(bare, barePaths, SECONDS / ROUNDS))
    else own.push(await measure(target, paths, SECONDS / ROUNDS))
  }
  return { own: merged(own), reference: merged(reference) }
}

/**
 * Asks every path (about twice over), then runs for WARMUP_SECONDS: the measured turns see the
 * server after its first pass over the workload (its reply cache holding every path), not that
 * first pass, which the reply-cache-off runs show.
 */
async function warm(target: Target, paths: readonly LoadPath[]): Promise<void> {
  // Each connection asks its slice in order; twice the longest slice leaves room for the
  // connections that run ahead of the others.
  await load(target, paths, { amount: 2 * CONNECTIONS * Math.ceil(paths.length / CONNECTIONS) })
  await load(target, paths, { seconds: WARMUP_SECONDS })
}

async function measure(target: Target, paths: readonly LoadPath[], seconds: number): Promise<Load> {
  const cpuBefore = cpuMicros(target.child)
  const result = await load(target, paths, { seconds })
  const cpuAfter = cpuMicros(target.child)
  return {
    ...result,
    requestsPerSecond: result.requests / result.seconds,
    serverCpu: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
  }
}

const load = (target: Target, paths: readonly LoadPath[], limit: { seconds: number } | { amount: number }) =>
  runLoad({ url: target.url, paths, headers: target.headers, connections: CONNECTIONS, ...limit })

export function merged(turns: Load[]): Load {
  const sum = (pick: (turn: Load) => number) => turns.reduce((total, turn) => total + pick(turn), 0)
  const requests = sum((t) => t.requests)
  const seconds = sum((t) => t.seconds)
  const p50s = turns.map((t) => t.p50Ms).sort((a, b) => a - b)
  const statusCodes: Record<string, number> = {}
  for (const turn of turns) for (const [code, count] of Object.entries(turn.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + count
  return {
    requestsPerSecond: requests / seconds,
    requests,
    p50Ms: p50s[Math.floor((p50s.length - 1) / 2)],
    p99Ms: Math.max(...turns.map((t) => t.p99Ms)),
    errors: sum((t) => t.errors),
    non2xx: sum((t) => t.non2xx),
    statusCodes,
    serverCpu: turns.some((t) => t.serverCpu === null) ? null : sum((t) => t.serverCpu!),
    seconds,
  }
}

const CLOCK_TICKS_PER_SECOND = 100 // USER_HZ, 100 on every mainstream Linux build

/** User + system CPU time of a process so far, from /proc (Linux); null where there is none. */
function cpuMicros(child: ChildProcess): number | null {
  try {
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND) * 1e6
  } catch {
    return null
  }
}

export function toRun(target: string, load: Load, bareRate: number): LoadRun {
  return {
    target,
    requestsPerSecond: load.requestsPerSecond,
    p50Ms: load.p50Ms,
    p99Ms: load.p99Ms,
    errors: load.errors,
    non2xx: load.non2xx,
    statusCodes: load.statusCodes,
    ratioToBare: load.requestsPerSecond / bareRate,
    serverCpuMicros: load.serverCpu === null ? null : load.serverCpu / load.requests,
  }
}

export async function startBareServer(bodyBytes: number): Promise<Target> {
  // stdin is a pipe the bare server watches: it exits when this process dies, however it dies.
  const child = stopOnExit(
    spawn(process.execPath, ['--import', 'tsx', 'test/bench/bare-server.ts'], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, PORT: '0', BARE_BODY_BYTES: String(bodyBytes) },
      stdio: ['pipe', 'pipe', 'inherit'],
    }),
  )
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()))
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)))
  })
  return { url: `http://127.0.0.1:${port}`, child, headers: {} }
}

/** Stops the child if this process exits first (an error thrown past every finally). */
function stopOnExit(child: ChildProcess): ChildProcess {
  const kill = () => child.kill('SIGTERM')
  process.once('exit', kill)
  child.once('exit', () => process.off('exit', kill))
  return child
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
}
