// Order tax for `make bench`: TaxJar's POST /taxjar/v2/taxes on the bundled server, every request
// a checkout of 5 line items (one of them clothing, one discounted, shipping charged) into a real
// ZIP of one of several states, the nexus coming from the account's registration list. Held
// against the bare node:http server sent the same POSTs and answering a body of the same size,
// taking turns with it as the lookup bench does, so the ratio is what the calculation costs
// beyond HTTP itself.
// Alone (one figure, without the rest of `make bench`):
//   TZ=UTC npx tsx test/bench/taxjar-bench.ts <artifacts directory with a CURRENT snapshot>
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { execa } from 'execa'
import { RateIndex } from '../../snapshot-contract/rate-index.ts'
import { loadSnapshot, readCurrentId } from '../../snapshot-contract/snapshot-store.ts'
import type { LoadRequest } from '../support/reliability-load.ts'
import { PROJECT_ROOT } from '../support/shared.ts'
import { startBareServer, startTaxAtlas, stop, takingTurns, toRun, type LoadRun, type Target } from './lookup-bench.ts'
import type { Measure } from './measure.ts'

const PORT = 18_494
const STATES = ['CA', 'IL', 'NY', 'TX', 'WA']
const TAXES_PATH = '/taxjar/v2/taxes'
export const TAXES_TARGET = 0.3

export type TaxjarResults = { measures: Measure[]; runs: LoadRun[]; notes: string[] }

/** One checkout of 5 line items into a ZIP, as a TaxJar integration posts it. */
function checkout(zip: string, state: string, i: number): LoadRequest {
  const cents = (n: number) => (n / 100).toFixed(2)
  const body = {
    from_country: 'US',
    from_zip: '19901',
    from_state: 'DE',
    to_country: 'US',
    to_zip: zip,
    to_state: state,
    shipping: cents(499 + (i % 700)),
    line_items: [
      { id: '1', quantity: 1 + (i % 3), unit_price: cents(1999 + (i % 500)) },
      { id: '2', quantity: 1, unit_price: cents(4500), product_tax_code: '20010' },
      { id: '3', quantity: 2, unit_price: cents(1250), discount: '2.50' },
      { id: '4', quantity: 1, unit_price: cents(899 + (i % 100)) },
      { id: '5', quantity: 3, unit_price: '3.33' },
    ],
  }
  return { method: 'POST', path: TAXES_PATH, body: JSON.stringify(body) }
}

async function checkouts(artifacts: string): Promise<LoadRequest[]> {
  const loaded = await loadSnapshot(artifacts, (await readCurrentId(artifacts))!)
  const rates = new RateIndex(new Uint8Array(loaded.files['rates.bin']))
  const requests: LoadRequest[] = []
  for (const state of STATES) for (const i of rates.entriesOfState(state)) requests.push(checkout(rates.entryAt(i).zip, state, requests.length))
  return requests
}

const post = (target: Target, request: LoadRequest) => fetch(`${target.url}${request.path}`, { method: 'POST', headers: target.headers, body: request.body })

export async function taxjarMeasures(artifacts: string): Promise<TaxjarResults> {
  await execa('make', ['-s', 'build/server/main.mjs'], { cwd: PROJECT_ROOT })
  const started = await startTaxAtlas(artifacts, PORT)
  const taxatlas: Target = { ...started, headers: { ...started.headers, 'content-type': 'application/json' } }
  try {
    const registered = await fetch(`${taxatlas.url}/v1/portability/nexus`, {
      method: 'PUT',
      headers: taxatlas.headers,
      body: JSON.stringify({ regions: STATES.map((state) => ({ state })) }),
    })
    if (!registered.ok) throw new Error(`PUT /v1/portability/nexus answered ${registered.status}`)
    const requests = await checkouts(artifacts)
    const notes: string[] = []
    const statuses: Record<number, number> = {}
    const step = Math.max(1, Math.floor(requests.length / 40))
    for (let i = 0; i < requests.length; i += step) {
      const response = await post(taxatlas, requests[i]!)
      await response.arrayBuffer()
      statuses[response.status] = (statuses[response.status] ?? 0) + 1
    }
    if (Object.keys(statuses).some((status) => status !== '200')) notes.push(`taxForOrder: sample of checkouts answered ${JSON.stringify(statuses)}`)
    const answer = await post(taxatlas, requests[0]!)
    const answerBytes = Buffer.byteLength(await answer.text())
    const bare = await startBareServer(answerBytes)
    try {
      const { own, reference } = await takingTurns(taxatlas, requests, bare, requests)
      const name = `taxForOrder (POST ${TAXES_PATH}), 5 line items`
      const run = toRun(`${name} (${requests.length} checkouts)`, own, reference.requestsPerSecond)
      const bareRun = toRun(`bare node:http, canned ${answerBytes}-byte JSON (its turns beside taxForOrder)`, reference, reference.requestsPerSecond)
      if (run.errors + run.non2xx > 0) notes.push(`taxForOrder: ${run.errors} errors, ${run.non2xx} non-2xx (${JSON.stringify(run.statusCodes)})`)
      const measure: Measure = { name: `${name}, req/s vs bare server`, value: run.ratioToBare, unit: '× bare', target: TAXES_TARGET, better: 'higher' }
      return { measures: [measure], runs: [bareRun, run], notes }
    } finally {
      await stop(bare.child)
    }
  } finally {
    await stop(taxatlas.child)
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const artifacts = process.argv[2]
  if (!artifacts) throw new Error('usage: tsx test/bench/taxjar-bench.ts <artifacts directory>')
  const { measures, runs, notes } = await taxjarMeasures(path.resolve(artifacts))
  for (const run of runs) process.stdout.write(`${run.target}: ${run.requestsPerSecond.toFixed(0)} req/s, p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms, server CPU ${run.serverCpuMicros?.toFixed(0) ?? '-'} µs/req\n`)
  for (const m of measures) process.stdout.write(`${m.name}: ${m.value.toFixed(2)} ${m.unit} (target ≥ ${m.target})\n`)
  for (const note of notes) process.stdout.write(`note: ${note}\n`)
}
