// One soak of the lookup server, shared by `make soak` (test/soak/soak.ts: full snapshot, maximum
// measured, 60 s at 80% of it, a real refresh published midway) and its short form in `make test`
// (test/reliability-soak.test.ts: a few seconds at a modest fixed rate, a re-published snapshot).
// The load runs over real ZIP, address, place and coordinate lookups that answered 200 before it
// started; RSS is sampled every second and read after a full GC before and after the load (the
// server must run with `fullGcOnSignal`); a new snapshot is published while the load runs, and the
// store file may be taken away for a few seconds (reliability-store-outage.ts); after
// it, every path is asked again and must answer the same rates, and every ZIP answer must carry
// the rate read straight from the new snapshot's index.
import { readCurrentId } from '../../snapshot-contract/snapshot-store.ts'
import { runLoad, type LoadOutcome } from './reliability-load.ts'
import { retainedMemory, rssVerdict, sampleRss, type RssVerdict } from './reliability-rss.ts'
import type { ServerProcess } from './reliability-server-process.ts'
import type { StoreOutageReport } from './reliability-store-outage.ts'
import { answeredPaths, lookupPaths, LOOKUP_MODES, ratesOf, zipRateFromIndex, type LookupMode, type LookupPath } from './reliability-workload.ts'

export type SoakOptions = {
  server: ServerProcess
  /** an API key whose tier's rate limit the load cannot reach */
  key: string
  artifactsDir: string
  /** candidate paths per lookup mode, before those not answered 200 are dropped */
  perMode: number
  seconds: number
  connections: number
  /** a fixed overall rate, or a fraction of the maximum measured first (after a short warm-up) */
  rate: { fixed: number } | { fractionOfMax: number; maxSeconds: number }
  /** publishes a new snapshot into artifactsDir and resolves with its id */
  publish: () => Promise<string>
  /** when to start publishing, as a fraction of the load's duration */
  publishAt: number
  /** after the load, before memory is read again: lets connections still open (slow clients) end */
  settle?: () => Promise<void>
  /** the store made unavailable for a while, as a fraction of the load's duration in: its report */
  storeOutage?: { at: number; run: () => Promise<StoreOutageReport> }
  log?: (line: string) => void
}

export type SoakReport = {
  paths: Record<LookupMode, number>
  maxRequestsPerSecond: number | null
  targetRequestsPerSecond: number
  seconds: number
  load: LoadOutcome
  rss: RssVerdict
  swap: { from: string; to: string; publishStartedAtS: number; servedFromS: number | null }
  /** the store phase, when there was one (started `startedAtS` into the load) */
  storeOutage: (StoreOutageReport & { startedAtS: number }) | null
  checks: { answersCompared: number; answersChanged: string[]; zipAnswersCompared: number; zipMismatches: string[] }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Memory after a full GC, taken twice: V8 frees array buffers on a background thread after the first. */
async function retainedNow(server: ServerProcess) {
  await server.fullGc()
  await sleep(500)
  return retainedMemory(await server.fullGc(), server.rssMb())
}

/** The snapshot /healthz names (it answers 503 with the same body while the store is degraded). */
async function servedSnapshot(url: string): Promise<string | null> {
  const response = await fetch(`${url}/healthz`).catch(() => null)
  return response && (response.status === 200 || response.status === 503) ? ((await response.json()) as { snapshot_id: string }).snapshot_id : null
}

/** Paths of the four modes in turn, so every connection's slice mixes them. */
function interleaved(paths: LookupPath[]): string[] {
  const byMode = LOOKUP_MODES.map((mode) => paths.filter((p) => p.mode === mode))
  const out: string[] = []
  for (let i = 0; out.length < paths.length; i++) for (const list of byMode) if (i < list.length) out.push(list[i].path)
  return out
}

export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const log = options.log ?? (() => {})
  const { server, key, artifactsDir } = options
  const headers = { 'x-api-key': key }
  const from = (await readCurrentId(artifactsDir))!

  const before = await answeredPaths(server.url, key, await lookupPaths(artifactsDir, from, options.perMode))
  const paths = Object.fromEntries(LOOKUP_MODES.map((mode) => [mode, before.filter((a) => a.path.mode === mode).length])) as Record<LookupMode, number>
  log(`paths answered 200: ${JSON.stringify(paths)}`)
  const load = { url: server.url, paths: interleaved(before.map((a) => a.path)), headers, connections: options.connections }

  let maxRequestsPerSecond: number | null = null
  let target: number
  if ('fixed' in options.rate) {
    target = options.rate.fixed
    // Warmed up like the maximum run warms the server, so RSS is sampled from a steady start.
    await runLoad({ ...load, seconds: 2, overallRate: target })
  } else {
    await runLoad({ ...load, seconds: 2 })
    const max = await runLoad({ ...load, seconds: options.rate.maxSeconds })
    maxRequestsPerSecond = max.requestsPerSecond
    target = Math.max(1, Math.round(max.requestsPerSecond * options.rate.fractionOfMax))
    log(`maximum ${max.requestsPerSecond.toFixed(0)} req/s (p50 ${max.p50Ms} ms, p99 ${max.p99Ms} ms, ${max.errors} errors, ${max.non2xx} non-2xx); soaking at ${target} req/s for ${options.seconds} s`)
  }

  const retainedBefore = await retainedNow(server)
  const sampler = sampleRss(server.rssMb)
  const started = performance.now()
  const elapsed = () => (performance.now() - started) / 1000
  const loading = runLoad({ ...load, seconds: options.seconds, overallRate: target })
  const outage = options.storeOutage
  const outageDone = outage
    ? sleep(options.seconds * outage.at * 1000).then(async () => {
        const startedAtS = elapsed()
        log(`taking the store file away at ${startedAtS.toFixed(1)} s`)
        const report = { ...(await outage.run()), startedAtS }
        log(`store phase: ${JSON.stringify(report)}`)
        return report
      })
    : Promise.resolve(null)
  await sleep(options.seconds * options.publishAt * 1000)
  const publishStartedAtS = elapsed()
  log(`publishing a new snapshot at ${publishStartedAtS.toFixed(1)} s`)
  const to = await options.publish()
  let servedFromS: number | null = null
  while (servedFromS === null && elapsed() < options.seconds + 30) {
    if ((await servedSnapshot(server.url)) === to) servedFromS = elapsed()
    else await sleep(100)
  }
  log(servedFromS === null ? `snapshot ${to} was never served` : `snapshot ${to} served from ${servedFromS.toFixed(1)} s`)
  const storeOutageReport = await outageDone
  const outcome = await loading
  const samples = sampler.stop()

  // After the swap: the same paths, the same rates; ZIP answers as the new index holds them.
  const after = await answeredPaths(server.url, key, before.map((a) => a.path))
  const afterByPath = new Map(after.map((a) => [a.path.path, a.body]))
  const answersChanged: string[] = []
  for (const { path, body } of before) {
    const now = afterByPath.get(path.path)
    if (!now) answersChanged.push(`${path.path}: no longer answered 200`)
    else if (JSON.stringify(now.rate) !== JSON.stringify(body.rate)) answersChanged.push(`${path.path}: ${JSON.stringify(body.rate)} → ${JSON.stringify(now.rate)}`)
  }
  // A request holds the snapshot it arrived with until it ends: memory is read once none is left.
  await options.settle?.()
  const rss = rssVerdict(samples, retainedBefore, await retainedNow(server))
  const rates = await ratesOf(artifactsDir, to)
  const today = new Date().toISOString().slice(0, 10)
  const zipMismatches: string[] = []
  let zipAnswersCompared = 0
  for (const { path, body } of after) {
    if (path.mode !== 'zip') continue
    zipAnswersCompared++
    const expected = zipRateFromIndex(rates, path.zip, path.state, today)
    if (body.rate.combined_rate !== expected) zipMismatches.push(`${path.path}: answered ${body.rate.combined_rate}, index ${expected}`)
  }

  return {
    paths,
    maxRequestsPerSecond,
    targetRequestsPerSecond: target,
    seconds: options.seconds,
    load: outcome,
    rss,
    swap: { from, to, publishStartedAtS, servedFromS },
    storeOutage: storeOutageReport,
    checks: { answersCompared: before.length, answersChanged, zipAnswersCompared, zipMismatches },
  }
}
