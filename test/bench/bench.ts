// `make bench`: every performance figure measured in one run on this machine, printed as one
// table and written to build/bench.json. Nothing here is asserted by `make test`.
import path from 'node:path'
import { writeAtomically } from '../../pipeline/file-bytes.ts'
import { formatTable } from '../../pipeline/snapshot-diff.ts'
import { meetsTarget, ratioToTarget, type Measure } from './measure.ts'
import { pipelineMeasures } from './pipeline-bench.ts'
import { serverMeasures } from './server-bench.ts'

const pipeline = await pipelineMeasures()
const measures: Measure[] = [...pipeline.measures, ...(await serverMeasures(pipeline.artifacts))]

const rows = measures.map((m) => [
  m.name,
  `${m.value.toFixed(m.value < 10 ? 2 : 1)} ${m.unit}`,
  `${m.better === 'lower' ? '≤' : '≥'} ${m.target} ${m.unit}`,
  ratioToTarget(m).toFixed(2),
  meetsTarget(m) ? 'met' : 'MISSED',
])
process.stdout.write(`${formatTable(['measure', 'value', 'target', 'ratio', ''], rows)}\n`)
const out = path.resolve(process.env.TAXATLAS_BUILD ?? 'build', 'bench.json')
await writeAtomically(out, `${JSON.stringify({ measured_at: new Date().toISOString(), measures }, null, 2)}\n`)
process.stdout.write(`\nwritten to ${out}\n`)
