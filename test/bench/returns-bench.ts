// Returns and change impact for `make bench`, on each store engine: one account's 1M transactions
// backfilled into one state (the one with the most rate changes over the last year and the next,
// dated over the 360 days before today, a tenth of them wholesale-exempt), then
// GET /v1/portability/returns for the last full calendar quarter (about a quarter of the rows) and
// GET /v1/changes?impact=true for the state (its last 90 days), each the median of CALLS calls;
// then ZIP lookups at a steady rate alone, and again while returns, then impacts, are asked for
// back to back: their p99 shows what a return costs the lookups sharing the server.
import { readFile, rm } from 'node:fs/promises'
import path from 'node:path'
import { rateChangesOfState } from '../../snapshot-contract/rate-changes.ts'
import { RateIndex } from '../../snapshot-contract/rate-index.ts'
import { readCurrentId, snapshotDir } from '../../snapshot-contract/snapshot-store.ts'
import { ndjsonOf, planRow, postNdjson, type RowPlan } from '../support/portability-rows.ts'
import type { LoadOutcome } from '../support/reliability-load.ts'
import { servedZips } from '../support/served-zips.ts'
import { tempDir } from '../support/refresh-run.ts'
import { runSteadyLoad } from '../support/steady-load.ts'
import type { Measure } from './measure.ts'
import { SECONDS } from './lookup-bench.ts'
import { startBenchServer, type StoreTarget } from './store-bench.ts'

const PORT = 18_700
const ROWS = 1_000_000
const CALLS = 5
/** lookups per second while measuring their latency: a steady load, far from the server's limit */
const LOOKUP_RATE = 200
const LOOKUP_CONNECTIONS = 10

/** The state with the most rate changes effective within a year of today either way. */
async function busiestState(artifacts: string): Promise<string> {
  const rates = new RateIndex(new Uint8Array(await readFile(path.join(snapshotDir(artifacts, (await readCurrentId(artifacts))!), 'rates.bin'))))
  const today = new Date()
  const day = (years: number) => new Date(Date.UTC(today.getUTCFullYear() + years, today.getUTCMonth(), today.getUTCDate())).toISOString().slice(0, 10)
  const [from, to] = [day(-1), day(1)]
  const near = (state: string) => rateChangesOfState(rates, state).filter((c) => c.effective >= from && c.effective <= to).length
  return rates.states.reduce((most, state) => (near(state) > near(most) ? state : most))
}

/** The calendar quarter before today's: its first and last days. */
function lastQuarter(): { from: string; to: string } {
  const now = new Date()
  const start = new Date(Date.UTC(now.getUTCFullYear(), Math.floor(now.getUTCMonth() / 3) * 3 - 3, 1))
  const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 3, 0))
  return { from: start.toISOString().slice(0, 10), to: end.toISOString().slice(0, 10) }
}

async function medianMs(url: string, key: string, calls: number): Promise<number> {
  const times: number[] = []
  for (let call = 0; call < calls; call++) {
    const started = performance.now()
    const response = await fetch(url, { headers: { 'X-API-Key': key } })
    await response.arrayBuffer()
    times.push(performance.now() - started)
    if (!response.ok) throw new Error(`${url} answered ${response.status}`)
  }
  return times.sort((a, b) => a - b)[calls >> 1]!
}

/** `url` asked for back to back until `stop` resolves; how many answers came. */
async function loop(url: string, key: string, stop: Promise<unknown>): Promise<number> {
  let done = false
  void stop.then(() => (done = true))
  let answered = 0
  while (!done) {
    const response = await fetch(url, { headers: { 'X-API-Key': key } })
    await response.arrayBuffer()
    if (!response.ok) throw new Error(`${url} answered ${response.status}`)
    answered++
  }
  return answered
}

export async function returnsMeasures(artifacts: string, target: StoreTarget | null = null): Promise<{ measures: Measure[]; notes: string[] }> {
  const ownDir = target ? null : await tempDir('bench-returns-store')
  const store = target?.store ?? path.join(ownDir!, 'store.duckdb')
  const label = target?.label ?? 'DuckDB'
  const state = await busiestState(artifacts)
  const zips = await servedZips(artifacts)
  const server = await startBenchServer(artifacts, store, PORT)
  const notes: string[] = []
  try {
    const key = await server.account('bench returns')
    const plan: RowPlan = { rows: ROWS, zips: [[state, zips.get(state)!]], today: new Date().toISOString().slice(0, 10), days: 360, prefix: 'ret' }
    const row = (i: number) => ({ ...planRow(plan, i), ...(i % 10 === 0 ? { exemption_type: 'wholesale' } : {}) })
    const report = (await (await postNdjson(server.url, key, ndjsonOf(plan, row))).json()) as { accepted?: number }
    if (report.accepted !== ROWS) throw new Error(`the returns bench backfill accepted ${report.accepted} of ${ROWS} rows`)

    const quarter = lastQuarter()
    const returnsUrl = `${server.url}/v1/portability/returns?state=${state}&from=${quarter.from}&to=${quarter.to}`
    const yearAgo = new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10)
    const impactUrl = `${server.url}/v1/changes?states=${state}&from=${yearAgo}&impact=true&limit=1000`
    const ret = (await (await fetch(returnsUrl, { headers: { 'X-API-Key': key } })).json()) as { totals: { transactions: number } }
    notes.push(`returns bench (${label}): ${state}, ${quarter.from} to ${quarter.to}, ${ret.totals.transactions} of the account's ${ROWS} transactions`)
    const returnsMs = await medianMs(returnsUrl, key, CALLS)
    const impactMs = await medianMs(impactUrl, key, CALLS)

    // ZIPs of every state, a steady rate: most lookups are of a ZIP not asked before.
    const lookupPaths = [...zips].flatMap(([code, list]) => list.map((zip) => `/v1/tax/${code.toLowerCase()}?zip=${zip}`))
    const lookups = (seconds = SECONDS): Promise<LoadOutcome> => runSteadyLoad({ url: server.url, paths: lookupPaths, headers: { 'X-API-Key': key }, connections: LOOKUP_CONNECTIONS, rate: LOOKUP_RATE, seconds })
    // A first lookup of each state reads what the state's answers share: not what is measured.
    for (const [code, list] of zips) await fetch(`${server.url}/v1/tax/${code.toLowerCase()}?zip=${list[0]}`, { headers: { 'X-API-Key': key } }).then((r) => r.arrayBuffer())
    await lookups(Math.min(2, SECONDS))
    const alone = await lookups()
    const during = async (url: string) => {
      const load = lookups()
      const answered = await loop(url, key, load)
      const outcome = await load
      if (outcome.errors || outcome.non2xx) notes.push(`returns bench (${label}): ${outcome.errors} lookup errors, ${outcome.non2xx} non-2xx while ${url.includes('returns') ? 'returns' : 'impacts'} ran`)
      return { outcome, answered }
    }
    const whileReturns = await during(returnsUrl)
    const whileImpact = await during(impactUrl)
    notes.push(`returns bench (${label}): ${whileReturns.answered} returns and ${whileImpact.answered} impacts answered while the lookups ran (${LOOKUP_RATE} lookups/s, ${SECONDS} s each)`)
    const p99 = (name: string, outcome: LoadOutcome): Measure => ({ name: `ZIP lookups' p99 at ${LOOKUP_RATE}/s ${name}, 1M transactions stored (${label})`, value: outcome.p99Ms, unit: 'ms', target: 50, better: 'lower' })
    return {
      measures: [
        { name: `returns, one state-quarter, 1M transactions stored (median of ${CALLS}) (${label})`, value: returnsMs, unit: 'ms', target: 2_000, better: 'lower' },
        { name: `change impact, one state's changes of a year, 1M transactions stored (median of ${CALLS}) (${label})`, value: impactMs, unit: 'ms', target: 1_000, better: 'lower' },
        p99('alone', alone),
        p99('while returns are summed back to back', whileReturns.outcome),
        p99('while impacts are summed back to back', whileImpact.outcome),
      ],
      notes,
    }
  } finally {
    await server.stop()
    if (ownDir) await rm(ownDir, { recursive: true, force: true })
  }
}
