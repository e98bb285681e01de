// `make diff FROM=<snapshot> TO=<snapshot> [AS_OF=YYYY-MM-DD]`: per state, the ZIPs added, removed and
// re-rated between two published snapshots, as a table on stdout and as CSV under build/.
import path from 'node:path'
import { writeAtomically } from '../snapshot-contract/file-bytes.ts'
import { RateIndex } from '../snapshot-contract/rate-index.ts'
import { readPipelineSettings } from './settings.ts'
import { changesToCsv, defaultZipRates, diffZipRates, formatTable, summarizeChanges } from './run/snapshot-diff.ts'
import { listSnapshotIds, loadSnapshot } from '../snapshot-contract/snapshot-store.ts'
import { openStaging } from './run/staging.ts'

const [from, to, asOfArgument] = process.argv.slice(2)
const settings = readPipelineSettings()
if (!from || !to) {
  const ids = await listSnapshotIds(settings.artifactsDir)
  process.stderr.write(`usage: make diff FROM=<snapshot> TO=<snapshot> [AS_OF=YYYY-MM-DD]\nsnapshots in ${settings.artifactsDir}:\n${ids.map((id) => `  ${id}`).join('\n')}\n`)
  process.exit(2)
}
const before = await loadSnapshot(settings.artifactsDir, from)
const after = await loadSnapshot(settings.artifactsDir, to)
const asOf = asOfArgument || after.manifest.generated_at.slice(0, 10)
const staging = await openStaging(null)
try {
  const changes = await diffZipRates(
    staging.connection,
    defaultZipRates(new RateIndex(before.files['rates.bin']), asOf),
    defaultZipRates(new RateIndex(after.files['rates.bin']), asOf),
  )
  const states = [...new Set([...before.manifest.states, ...after.manifest.states].map((s) => s.code))].sort()
  const summary = summarizeChanges(changes, states).filter((s) => s.added + s.removed + s.rerated > 0)
  process.stdout.write(`ZIP changes from ${from} to ${to}, rates as of ${asOf}\n\n`)
  process.stdout.write(`${formatTable(['state', 'added', 'removed', 're-rated'], summary.map((s) => [s.state, s.added, s.removed, s.rerated]))}\n\n`)
  const rerated = changes.filter((c) => c.change === 'rerated')
  process.stdout.write(`${formatTable(['state', 'zip', 'before', 'after'], rerated.map((c) => [c.state, c.zip, c.before ?? '', c.after ?? '']))}\n\n`)
  const csvPath = path.join(settings.buildDir, `diff-${from}-${to}.csv`)
  await writeAtomically(csvPath, changesToCsv(changes))
  process.stdout.write(`${changes.length} changes; CSV: ${csvPath}\n`)
} finally {
  staging.close()
}
