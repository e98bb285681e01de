// `make soak`: the bundled server on a full snapshot built from ../shared, its maximum lookup
// throughput measured briefly with autocannon, then SOAK_SECONDS (default 60) at SOAK_FRACTION
// (default 0.8) of it over real ZIP, address, place and coordinate lookups, with a second real
// refresh published into the same artifacts directory while the load runs, and the store file
// taken away from the server for 5 s (SOAK_STORE_OUTAGE_SECONDS) midway: writes meanwhile must be
// refused with 503 and accepted again on their own once it is back, lookups never fail. RSS is sampled every
// second and read after a full GC before and after the load. Two slowloris clients (headers, then
// a body, a byte every 2 s) hold connections through it all: the slow headers must be cut off
// with a 408 in the envelope. Prints requests, errors, non-2xx, p50/p99, RSS first/last/max and
// retained with a growth verdict, and the answer checks after the swap; writes everything to
// build/soak.json; exits 1 when a check fails.
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { execa } from 'execa'
import { writeAtomically } from '../../snapshot-contract/file-bytes.ts'
import { readCurrentId } from '../../snapshot-contract/snapshot-store.ts'
import { refreshProcess, tempDir } from '../support/refresh-run.ts'
import { startServerProcess } from '../support/reliability-server-process.ts'
import { slowBody, slowHeaders, type SlowClient, type SlowOutcome } from '../support/reliability-slow-client.ts'
import { runSoak, type SoakReport } from '../support/reliability-soak-run.ts'
import { storeOutage } from '../support/reliability-store-outage.ts'
import { PROJECT_ROOT, sharedPath } from '../support/shared.ts'

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60)
const FRACTION = Number(process.env.SOAK_FRACTION ?? 0.8)
const MAX_SECONDS = Number(process.env.SOAK_MAX_SECONDS ?? 8)
const OUTAGE_SECONDS = Number(process.env.SOAK_STORE_OUTAGE_SECONDS ?? 5)
const CONNECTIONS = 50
const PER_MODE = 2_000
// The enterprise limit (10,000/s per key) would cap the maximum below what the server does.
const SOAK_TIERS = JSON.stringify({ enterprise: { rate_per_second: 10_000_000, burst: 10_000_000 } })

const log = (line: string) => process.stderr.write(`soak: ${line}\n`)

const artifacts = await tempDir('soak-artifacts')
const scratch = await tempDir('soak-build')
const storeDir = await tempDir('soak-store')
const pipelineEnv = {
  TAXATLAS_MIRROR: sharedPath('mirror'),
  TAXATLAS_DROPS: sharedPath('drops'),
  TAXATLAS_GEO: sharedPath('geo'),
  TAXATLAS_ARTIFACTS: artifacts,
  TAXATLAS_BUILD: scratch,
}
/** A real refresh into the soak's artifacts directory, as its own process; resolves with the published id. */
async function refresh(): Promise<string> {
  const run = await refreshProcess(pipelineEnv)
  if (run.exitCode !== 0) throw new Error(`refresh failed:\n${run.stderr}`)
  return (await readCurrentId(artifacts))!
}

log('building a full snapshot')
const first = await refresh()
await execa('make', ['-s', 'build/server/main.mjs'], { cwd: PROJECT_ROOT })
const storePath = path.join(storeDir, 'store.duckdb')
const server = await startServerProcess({
  entry: 'bundle',
  artifactsDir: artifacts,
  storePath,
  env: { TAXATLAS_TIERS: SOAK_TIERS },
  fullGcOnSignal: true,
  keepAccessLog: false,
})
// Node's header timeout (60 s) is enforced by a check every 30 s: the slow headers are cut off within 90 s.
const SLOW_HEADERS_WAIT_S = 120
let report: SoakReport
type SlowReport = { headers: SlowOutcome | null; body: SlowOutcome | null; bodyHeldS: number; heapAndExternalWhileBodyOpenMb: number }
const settledSlow: { report?: SlowReport } = {}
try {
  const { api_key: key } = await server.createAccount('enterprise', 'soak')
  log(`serving ${first} at ${server.url} (pid ${server.pid})`)
  const slowStarted = performance.now()
  const slowClients = { headers: slowHeaders(server.url), body: slowBody(server.url, key) }
  report = await runSoak({
    server,
    key,
    artifactsDir: artifacts,
    perMode: PER_MODE,
    seconds: SECONDS,
    connections: CONNECTIONS,
    rate: { fractionOfMax: FRACTION, maxSeconds: MAX_SECONDS },
    // A full refresh takes a while next to the load: started at a quarter, it lands mid-run.
    publish: refresh,
    publishAt: 0.25,
    // Past the refresh's start, on its own: well inside the load.
    storeOutage: { at: 0.6, run: () => storeOutage({ url: server.url, key, storePath, seconds: OUTAGE_SECONDS, zip: '30303', state: 'GA' }) },
    log,
    // The slow headers must be cut off by now; the slow body (which arrived before the swap and
    // still holds the first snapshot) is noted, then closed.
    settle: async () => {
      const settled = (client: SlowClient, untilS: number) =>
        Promise.race([client.outcome, new Promise<null>((resolve) => setTimeout(() => resolve(null), Math.max(0, untilS * 1000 - (performance.now() - slowStarted))))])
      const headers = await settled(slowClients.headers, SLOW_HEADERS_WAIT_S)
      const body = await settled(slowClients.body, 0)
      const usage = await server.fullGc()
      settledSlow.report = { headers, body, bodyHeldS: (performance.now() - slowStarted) / 1000, heapAndExternalWhileBodyOpenMb: (usage.heapUsed + usage.external) / 1048576 }
      slowClients.headers.stop()
      slowClients.body.stop()
      await slowClients.body.outcome
      // The server notices the closed connection on its next turns, and only then lets the request go.
      await new Promise((resolve) => setTimeout(resolve, 1_000))
    },
  })
} finally {
  await server.stop()
  for (const dir of [artifacts, scratch, storeDir]) await rm(dir, { recursive: true, force: true })
}

const { load, rss, swap, checks, storeOutage: outage } = report
const slow = settledSlow.report
if (!slow) throw new Error('the slowloris clients were never settled')
const failures = [
  load.errors > 0 && `${load.errors} connection errors or timeouts`,
  load.non2xx > 0 && `${load.non2xx} non-2xx answers ${JSON.stringify(load.statusCodes)}`,
  rss.grows && `retained memory grew ${rss.growthMb.toFixed(1)} MB (tolerance ${rss.toleranceMb.toFixed(1)} MB)`,
  swap.servedFromS === null && `snapshot ${swap.to} was never served`,
  swap.servedFromS !== null && swap.servedFromS > SECONDS && `snapshot ${swap.to} was served only after the load (${swap.servedFromS.toFixed(1)} s)`,
  checks.answersChanged.length > 0 && `${checks.answersChanged.length} answers changed after the swap: ${checks.answersChanged.slice(0, 5).join('; ')}`,
  checks.zipMismatches.length > 0 && `${checks.zipMismatches.length} ZIP answers differ from the index: ${checks.zipMismatches.slice(0, 5).join('; ')}`,
  (slow.headers?.status !== 408 || !slow.headers.answer.includes('"REQUEST_TIMEOUT"')) && `slow headers not cut off with a 408 envelope within ${SLOW_HEADERS_WAIT_S} s: ${JSON.stringify(slow.headers)}`,
  !outage && 'the store phase did not run',
  outage && outage.refusedBefore > 0 && `${outage.refusedBefore} writes refused before the store phase`,
  outage && outage.acknowledgedWhileAway > 0 && `${outage.acknowledgedWhileAway} writes acknowledged while the store file was away`,
  outage && !Object.keys(outage.whileAway).some((o) => o.startsWith('503')) && `no write was refused with 503 while the store file was away: ${JSON.stringify(outage.whileAway)}`,
  outage && outage.recoveredAfterS === null && 'writes were not accepted again within 30 s of the store file coming back',
].filter((f): f is string => typeof f === 'string')

const lines = [
  ['lookup paths (answered 200 before the load)', Object.entries(report.paths).map(([m, n]) => `${m} ${n}`).join(', ')],
  ['maximum (autocannon, 50 connections)', `${report.maxRequestsPerSecond?.toFixed(0)} req/s over ${MAX_SECONDS} s`],
  ['soak rate', `${report.targetRequestsPerSecond} req/s (${Math.round(FRACTION * 100)}% of maximum) for ${SECONDS} s`],
  ['requests', `${load.requests} (${load.requestsPerSecond.toFixed(0)} req/s achieved)`],
  ['errors / timeouts', String(load.errors)],
  ['non-2xx', `${load.non2xx} ${JSON.stringify(load.statusCodes)}`],
  ['latency p50 / p99 / max', `${load.p50Ms} / ${load.p99Ms} / ${load.maxMs} ms`],
  ['RSS first / last / max', `${rss.firstMb.toFixed(0)} / ${rss.lastMb.toFixed(0)} / ${rss.maxMb.toFixed(0)} MB (${rss.samples} samples)`],
  ['after a full GC, before / after: RSS', `${rss.retainedBefore.rssMb.toFixed(0)} / ${rss.retainedAfter.rssMb.toFixed(0)} MB`],
  ['after a full GC, before / after: heap + external', `${rss.retainedBefore.heapAndExternalMb.toFixed(1)} / ${rss.retainedAfter.heapAndExternalMb.toFixed(1)} MB: ${rss.growthMb >= 0 ? '+' : ''}${rss.growthMb.toFixed(1)} MB, tolerance ${rss.toleranceMb.toFixed(0)} MB: ${rss.grows ? 'GROWS' : 'does not grow'}`],
  ['hot swap', `${swap.from} → ${swap.to}; refresh started at ${swap.publishStartedAtS.toFixed(1)} s, served from ${swap.servedFromS?.toFixed(1) ?? 'never'} s`],
  [
    'store file away',
    outage ? `${outage.seconds} s from ${outage.startedAtS.toFixed(1)} s: writes ${JSON.stringify(outage.whileAway)}, accepted again ${outage.recoveredAfterS === null ? 'never' : `${outage.recoveredAfterS.toFixed(2)} s after it came back`}` : 'not run',
  ],
  ['answers after the swap', `${checks.answersCompared - checks.answersChanged.length} of ${checks.answersCompared} unchanged`],
  ['ZIP answers vs the new rates index', `${checks.zipAnswersCompared - checks.zipMismatches.length} of ${checks.zipAnswersCompared} equal`],
  ['slowloris: headers a byte every 2 s', slow.headers ? `closed after ${slow.headers.heldSeconds.toFixed(0)} s with ${slow.headers.status ?? 'no answer'}` : `still open after ${SLOW_HEADERS_WAIT_S} s`],
  [
    'slowloris: body a byte every 2 s',
    `${slow.body ? `closed after ${slow.body.heldSeconds.toFixed(0)} s with ${slow.body.status ?? 'no answer'}` : `still open after ${slow.bodyHeldS.toFixed(0)} s (TAXATLAS_REQUEST_TIMEOUT_MS, 300 s by default, ends it)`}; heap + external while it held the first snapshot: ${slow.heapAndExternalWhileBodyOpenMb.toFixed(1)} MB`,
  ],
  ['verdict', failures.length === 0 ? 'held' : `FAILED: ${failures.join('; ')}`],
]
const width = Math.max(...lines.map(([name]) => name.length))
process.stdout.write(`${lines.map(([name, value]) => `${name.padEnd(width)}  ${value}`).join('\n')}\n`)

const out = path.resolve(process.env.TAXATLAS_BUILD ?? 'build', 'soak.json')
await writeAtomically(out, `${JSON.stringify({ measured_at: new Date().toISOString(), fraction: FRACTION, ...report, slowloris: slow, failures }, null, 2)}\n`)
process.stdout.write(`\nwritten to ${out}\n`)
if (failures.length > 0) process.exitCode = 1
