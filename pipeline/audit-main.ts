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
import { auditState, disagreementsCsv, SUMMARY_HEADER, summarizeAudit, summaryRows, type StateAudit } from './audit/consistency-audit.ts'
import { compileAvalara } from './feeds/avalara-zip5/compile.ts'
import { loadGeography } from './geography/load-geography.ts'
import { parseDrop, readNewestDrop } from './feeds/manual-drops.ts'
import { readPipelineSettings } from './settings.ts'
import { formatTable } from './run/snapshot-diff.ts'
import { DEFAULT_RULE_SETTINGS } from './feeds/aggregator-defaults.ts'
import { auditRules, HELD_OUT_HEADER, heldOutRows, RULE_EFFECT_HEADER, ruleEffectRows, type RuleAuditInput } from './audit/rule-audit.ts'
import { ruleAuditMarkdown } from './audit/rule-audit-doc.ts'


const { values } = parseArgs({ options: { snapshot: { type: 'string' }, 'as-of': { type: 'string' }, docs: { type: 'string' } } })
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
const ruleInputs: RuleAuditInput[] = []
for (const record of snapshot.manifest.states) {
  // Only a revenue department's file has per-place rates to hold the aggregator to.
  if (feedTraits(record.feed).sourceKind !== 'official' || !index.states.includes(record.code)) continue
  const drop = await readNewestDrop(record.code, settings.dropsDir)
  if (!drop) continue
  const parsed = parseDrop(drop)
  const compiled = compileAvalara({ ...parsed, state: record.code, geography })
  ruleInputs.push({ state: record.code, index, asOf, editionDate: parsed.edition.editionDate, rows: parsed.rows, compile: (ruleSettings) => (ruleSettings === DEFAULT_RULE_SETTINGS ? compiled : compileAvalara({ ...parsed, state: record.code, geography, ruleSettings })) })
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

const ruleAudit = auditRules(ruleInputs)
const effectRows = ruleEffectRows(ruleAudit.effects)
const heldOut = heldOutRows(ruleAudit.heldOut)
process.stdout.write(`\nEach default-choice rule, state by state (agreement of the default with the official rate; ${'`'}usps_city_preferred${'`'}: of the official default with the aggregator)\n\n`)
process.stdout.write(`${formatTable(RULE_EFFECT_HEADER, effectRows)}\n\n`)
process.stdout.write(`The rules' figures chosen on the other official states (leave-one-state-out)\n\n${formatTable(HELD_OUT_HEADER, heldOut)}\n`)
if (values.docs) {
  await writeAtomically(values.docs, ruleAuditMarkdown({ snapshot: id, asOf, summary: [SUMMARY_HEADER, ...rows], effects: [RULE_EFFECT_HEADER, ...effectRows], heldOut: [HELD_OUT_HEADER, ...heldOut] }))
  process.stdout.write(`rule table written to ${values.docs}\n`)
}
