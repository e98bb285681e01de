// The one table of `make bench`: every measure with its target, ratio and verdict, and for the
// load lines (the bare node:http reference, the four lookup modes and order tax) their throughput, p50/p99
// latency and server CPU per request beside it. Rows without a target (the reference, each
// artifact's size) are shown for context.
import { readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { readCurrentId, snapshotDir } from '../../snapshot-contract/snapshot-store.ts'
import type { InternalsLine } from './internals-bench.ts'
import type { LoadRun } from './lookup-bench.ts'
import { meetsTarget, ratioToTarget, type Measure } from './measure.ts'
import { spatialFigures, type SpatialComparison } from './spatial-bench.ts'

export type BenchRow = {
  measure: string
  value: string
  target: string
  ratio: string
  met: string
  requestsPerSecond: string
  p50Ms: string
  p99Ms: string
  serverCpuMicros: string
}

const number = (value: number) => value.toFixed(value < 10 ? 2 : 1)

function measureRow(m: Measure, run?: LoadRun): BenchRow {
  return {
    measure: m.name,
    value: `${number(m.value)} ${m.unit}`,
    target: `${m.better === 'lower' ? '≤' : '≥'} ${m.target} ${m.unit}`,
    ratio: ratioToTarget(m).toFixed(2),
    met: meetsTarget(m) ? 'met' : 'MISSED',
    ...loadColumns(run),
  }
}

function loadColumns(run?: LoadRun): Pick<BenchRow, 'requestsPerSecond' | 'p50Ms' | 'p99Ms' | 'serverCpuMicros'> {
  if (!run) return { requestsPerSecond: '', p50Ms: '', p99Ms: '', serverCpuMicros: '' }
  return {
    requestsPerSecond: run.requestsPerSecond.toFixed(0),
    p50Ms: String(run.p50Ms),
    p99Ms: String(run.p99Ms),
    serverCpuMicros: run.serverCpuMicros === null ? '-' : run.serverCpuMicros.toFixed(0),
  }
}

const infoRow = (measure: string, value: string, run?: LoadRun): BenchRow => ({ measure, value, target: '', ratio: '', met: '', ...loadColumns(run) })

/** Each file of the snapshot in service, in MB. */
export async function artifactSizes(artifacts: string): Promise<{ name: string; mb: number }[]> {
  const dir = snapshotDir(artifacts, (await readCurrentId(artifacts))!)
  const sizes = []
  for (const name of (await readdir(dir)).sort()) sizes.push({ name, mb: (await stat(path.join(dir, name))).size / 1024 / 1024 })
  return sizes
}

export function benchRows(parts: {
  pipeline: Measure[]
  sizes: { name: string; mb: number }[]
  /** each grid index against flatbush: no target, a line whose answers differ is marked FAILED */
  spatial?: SpatialComparison[]
  /** code tied to a dependency's internals against the plain way: no target */
  internals?: InternalsLine[]
  server: Measure[]
  lookups: { measures: Measure[]; runs: LoadRun[]; uncachedRuns: LoadRun[] }
  /** runs: the bare server's turns beside order tax, then order tax (none when not measured) */
  taxjar?: { measures: Measure[]; runs: LoadRun[] }
  portability: Measure[]
}): BenchRow[] {
  const rows = parts.pipeline.map((m) => measureRow(m))
  for (const { name, mb } of parts.sizes) rows.push(infoRow(`  ${name}`, `${mb.toFixed(mb < 0.1 ? 3 : 2)} MB`))
  for (const line of parts.spatial ?? []) rows.push({ ...infoRow(`${line.query}: flatbush / grid`, spatialFigures(line)), met: line.mismatch ? 'FAILED' : '' })
  for (const line of parts.internals ?? []) rows.push(infoRow(line.line, line.figures))
  rows.push(...parts.server.map((m) => measureRow(m)))
  // runs: the bare server (all its turns), then one per lookup measure in order.
  const { measures, runs } = parts.lookups
  if (runs.length === measures.length + 1) {
    rows.push(infoRow(runs[0].target, 'reference', runs[0]))
    measures.forEach((m, i) => rows.push(measureRow(m, runs[i + 1])))
    for (const run of parts.lookups.uncachedRuns) rows.push(infoRow(run.target, `${run.ratioToBare.toFixed(2)} × bare`, run))
  } else {
    rows.push(...measures.map((m) => measureRow(m)))
  }
  const { measures: taxMeasures, runs: taxRuns } = parts.taxjar ?? { measures: [], runs: [] }
  if (taxRuns.length === taxMeasures.length + 1) {
    rows.push(infoRow(taxRuns[0].target, 'reference', taxRuns[0]))
    taxMeasures.forEach((m, i) => rows.push(measureRow(m, taxRuns[i + 1])))
  } else {
    rows.push(...taxMeasures.map((m) => measureRow(m)))
  }
  rows.push(...parts.portability.map((m) => measureRow(m)))
  return rows
}
