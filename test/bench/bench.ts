// `make bench`: every performance figure measured in one run on this machine, printed as one
// table and written to build/bench.json. Nothing here is asserted by `make test`.
import path from 'node:path'
import { writeAtomically } from '../../pipeline/file-bytes.ts'
import { formatTable } from '../../pipeline/snapshot-diff.ts'
import { CONNECTIONS, lookupMeasures, SECONDS } from './lookup-bench.ts'
import { meetsTarget, ratioToTarget, type Measure } from './measure.ts'
import { pipelineMeasures } from './pipeline-bench.ts'
import { serverMeasures } from './server-bench.ts'

const pipeline = await pipelineMeasures()
const server = await serverMeasures(pipeline.artifacts)
const lookups = await lookupMeasures(pipeline.artifacts)
const measures: Measure[] = [...pipeline.measures, ...server, ...lookups.measures]

const rows = measures.map((m) => [
  m.name,
  `${m.value.toFixed(m.value < 10 ? 2 : 1)} ${m.unit}`,
  `${m.better === 'lower' ? '≤' : '≥'} ${m.target} ${m.unit}`,
  ratioToTarget(m).toFixed(2),
  meetsTarget(m) ? 'met' : 'MISSED',
])
process.stdout.write(`${formatTable(['measure', 'value', 'target', 'ratio', ''], rows)}\n`)

const loadRows = lookups.runs.map((r) => [
  r.target,
  r.requestsPerSecond.toFixed(0),
  String(r.p50Ms),
  String(r.p99Ms),
  String(r.errors),
  String(r.non2xx),
  `${r.ratioToBare.toFixed(2)}×`,
  r.serverCpuMicros === null ? '-' : r.serverCpuMicros.toFixed(0),
])
if (loadRows.length > 0) {
  process.stdout.write(`\nload: autocannon, ${CONNECTIONS} connections, ${SECONDS} s per line (BENCH_SECONDS)\n`)
  process.stdout.write(`${formatTable(['target', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx', 'vs bare', 'server CPU µs/req'], loadRows)}\n`)
}
for (const note of lookups.notes) process.stdout.write(`note: ${note}\n`)

const out = path.resolve(process.env.TAXATLAS_BUILD ?? 'build', 'bench.json')
const report = { measured_at: new Date().toISOString(), measures, load_runs: lookups.runs, notes: lookups.notes }
await writeAtomically(out, `${JSON.stringify(report, null, 2)}\n`)
process.stdout.write(`\nwritten to ${out}\n`)
