// `make audit [SNAPSHOT=<id>] [AS_OF=YYYY-MM-DD]` (--snapshot, --as-of): the consistency audit (consistency-audit.ts) of a
// published snapshot (the current one by default) against the newest aggregator drop of each state
// it serves from an official file; a table on stdout, CSVs under build/.
import path from 'node:path'
import { parseArgs } from 'node:util'
import { feedTraits } from '../snapshot-contract/feed-traits.ts'
import { writeAtomically } from '../snapshot-contract/file-bytes.ts'
import { RateIndex } from '../snapshot-contract/rate-index.ts'
import { formatRate, parseRateFraction } from '../snapshot-contract/rate-units.ts'
import { loadSnapshot, readCurrentId } from '../snapshot-contract/snapshot-store.ts'
import { auditState, disagreementsCsv, SUMMARY_HEADER, summarizeAudit, summaryRows, type StateAudit } from './consistency-audit.ts'
import { compileAvalara } from './feeds/avalara-zip5.ts'
import { loadGeography } from './geography/load-geography.ts'
import { parseDrop, readNewestDrop } from './manual-drops.ts'
import { readPipelineSettings } from './settings.ts'
import { formatTable } from './snapshot-diff.ts'


const { values } = parseArgs({ options: { snapshot: { type: 'string' }, 'as-of': { type: 'string' } } })
const settings = readPipelineSettings()
const id = values.snapshot || (await readCurrentId(settings.artifactsDir))
if (!id) {
  process.stderr.write(`no snapshot in ${settings.artifactsDir}: run make refresh first\n`)
  process.exit(2)
}
const snapshot = await loadSnapshot(settings.artifactsDir, id)
const index = new RateIndex(snapshot.files['rates.bin'])
const asOf = values['as-of'] || snapshot.manifest.generated_at.slice(0, 10)
const geography = await loadGeography(settings)

const audits: StateAudit[] = []
for (const record of snapshot.manifest.states) {
  // Only a revenue department's file has per-place rates to hold the aggregator to.
  if (feedTraits(record.feed).sourceKind !== 'official' || !index.states.includes(record.code)) continue
  const drop = await readNewestDrop(record.code, settings.dropsDir)
  if (!drop) continue
  const parsed = parseDrop(drop)
  const compiled = compileAvalara({ ...parsed, state: record.code, geography })
  audits.push(
    auditState({
      state: record.code,
      index,
      officialFeed: record.feed,
      officialEdition: record.edition ?? '',
      asOf,
      rows: parsed.rows,
      compiled,
      aggregatorEdition: parsed.edition,
      unplaced: record.unplaced.map((u) => {
        const rate = parseRateFraction(u.rate)
        return { rate: rate.ok ? rate.units : 0, counties: u.counties ?? null, until: u.until ?? null }
      }),
    }),
  )
}

process.stdout.write(`Consistency audit of snapshot ${id}: official rates as of ${asOf} against the newest aggregator drop\n\n`)
process.stdout.write(`${formatTable(['state', 'official feed', 'official edition', 'aggregator edition'], audits.map((a) => [a.state, a.officialFeed, a.officialEdition, a.aggregatorEdition]))}\n\n`)
const rows = summaryRows(audits.map(summarizeAudit))
process.stdout.write(`${formatTable(SUMMARY_HEADER, rows)}\n\n`)
const summaryPath = path.join(settings.buildDir, `audit-${id}-summary.csv`)
const csvPath = path.join(settings.buildDir, `audit-${id}.csv`)
await writeAtomically(summaryPath, `${[SUMMARY_HEADER, ...rows].map((row) => row.join(',')).join('\n')}\n`)
await writeAtomically(csvPath, disagreementsCsv(audits, formatRate))
process.stdout.write(`summary CSV: ${summaryPath}\ndisagreements CSV: ${csvPath}\n`)
