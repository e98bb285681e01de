// `make bench`: every performance figure measured in one run on this machine, printed as one
// table, written to build/bench.json and into docs/benchmarks.md (between its markers, with the
// date and the machine). Nothing here is asserted by `make test`.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { writeAtomically } from '../../snapshot-contract/file-bytes.ts'
import { formatTable } from '../../pipeline/run/snapshot-diff.ts'
import { PROJECT_ROOT } from '../support/shared.ts'
import { benchSection, thisMachine, withBenchSection } from './bench-doc.ts'
import { artifactSizes, benchRows, type BenchRow } from './bench-table.ts'
import { changesMeasures } from './changes-bench.ts'
import { INTERNALS_CONDITIONS, internalsLines } from './internals-bench.ts'
import { CONNECTIONS, lookupMeasures, ROUNDS, SECONDS } from './lookup-bench.ts'
import type { Measure } from './measure.ts'
import { pipelineMeasures } from './pipeline-bench.ts'
import { portabilityMeasures } from './portability-bench.ts'
import { returnsMeasures } from './returns-bench.ts'
import { serverMeasures } from './server-bench.ts'
import { SPATIAL_CONDITIONS, spatialComparisons } from './spatial-bench.ts'
import { orderMeasures } from './store-bench.ts'
import { taxjarMeasures } from './taxjar-bench.ts'
import { webhookMeasures } from './webhooks-bench.ts'
import { startPostgres } from '../support/postgres-server.ts'
import { tempDir } from '../support/refresh-run.ts'

const ORDERS_PORT = 18_600

const pipeline = await pipelineMeasures()
const sizes = await artifactSizes(pipeline.artifacts)
const spatial = await spatialComparisons(pipeline.artifacts)
const internals = await internalsLines()
const server = [...(await serverMeasures(pipeline.artifacts)), ...(await changesMeasures(pipeline.artifacts))]
// The store's lines run on both engines: PostgreSQL on a throwaway server with its default
// durability (fsync and synchronous commits on), a database per line.
const postgres = await startPostgres({ durable: true })
const onPostgres = async (label: string) => ({ label: 'PostgreSQL', store: await postgres.createDatabase(label) })
let lookups: Awaited<ReturnType<typeof lookupMeasures>>
let taxjar: Awaited<ReturnType<typeof taxjarMeasures>>
const portability: Measure[] = []
const storeNotes: string[] = []
try {
  lookups = await lookupMeasures(pipeline.artifacts, { postgresUrl: await postgres.createDatabase('bench_lookups') })
  taxjar = await taxjarMeasures(pipeline.artifacts)
  portability.push(...(await portabilityMeasures(pipeline.artifacts)))
  portability.push(...(await portabilityMeasures(pipeline.artifacts, await onPostgres('bench_backfill'))))
  for (const target of [{ label: 'DuckDB', store: path.join(await tempDir('bench-orders'), 'store.duckdb') }, await onPostgres('bench_orders')]) {
    const orders = await orderMeasures(pipeline.artifacts, target, ORDERS_PORT)
    portability.push(...orders.measures)
    storeNotes.push(...orders.notes)
  }
  for (const target of [null, await onPostgres('bench_returns')]) {
    const returns = await returnsMeasures(pipeline.artifacts, target)
    portability.push(...returns.measures)
    storeNotes.push(...returns.notes)
  }
  server.push(...(await webhookMeasures(pipeline.artifacts, { label: 'DuckDB', store: { kind: 'duckdb', file: path.join(await tempDir('bench-webhooks'), 'store.duckdb') } })))
  server.push(...(await webhookMeasures(pipeline.artifacts, { label: 'PostgreSQL', store: { kind: 'postgres', url: await postgres.createDatabase('bench_webhooks') } })))
} finally {
  await postgres.dispose()
}
const measures: Measure[] = [...pipeline.measures, ...server, ...lookups.measures, ...taxjar.measures, ...portability]

const rows: BenchRow[] = benchRows({ pipeline: pipeline.measures, sizes, spatial, internals, server, lookups, taxjar, portability })
const columns = ['measure', 'value', 'target', 'ratio', '', 'req/s', 'p50 ms', 'p99 ms', 'server CPU µs/req']
process.stdout.write(`${formatTable(columns, rows.map((r) => [r.measure, r.value, r.target, r.ratio, r.met, r.requestsPerSecond, r.p50Ms, r.p99Ms, r.serverCpuMicros]))}\n`)
const conditions =
  `lookups and taxForOrder: autocannon, ${CONNECTIONS} connections, ${SECONDS} s per line (BENCH_SECONDS) in ${ROUNDS} turns, each workload taking turns with the bare server (ABBA) after a warm-up over all its paths (the bare server is sent the same POSTs as taxForOrder); ` +
  `ratio = value / target for "≤" targets, target / value for "≥" (below 1: met with room); ${SPATIAL_CONDITIONS}; ${INTERNALS_CONDITIONS}`
process.stdout.write(`\n${conditions}\n`)
const spatialNotes = spatial.flatMap((line) => (line.mismatch ? [`${line.query}: ${line.mismatch}`] : []))
const notes = [...spatialNotes, ...lookups.notes, ...taxjar.notes, ...storeNotes]
for (const note of notes) process.stdout.write(`note: ${note}\n`)

const measuredAt = new Date().toISOString()
const out = path.resolve(process.env.TAXATLAS_BUILD ?? 'build', 'bench.json')
const report = { measured_at: measuredAt, table: rows, measures, spatial, internals, load_runs: [...lookups.runs, ...lookups.uncachedRuns, ...taxjar.runs], notes }
await writeAtomically(out, `${JSON.stringify(report, null, 2)}\n`)
process.stdout.write(`\nwritten to ${out}\n`)

const doc = path.join(PROJECT_ROOT, 'docs', 'benchmarks.md')
const section = benchSection({ measuredAt, machine: thisMachine(), rows, conditions, notes })
await writeAtomically(doc, withBenchSection(await readFile(doc, 'utf8'), section))
process.stdout.write(`and into ${path.relative(PROJECT_ROOT, doc)}\n`)
