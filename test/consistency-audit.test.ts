// make audit on the real snapshot and drops: every state served from an official file with a drop
// at hand is audited, the agreement printed is the one the files give, and every disagreement is
// listed with a class that holds.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { execa } from 'execa'
import Papa from 'papaparse'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { DISAGREEMENT_CLASSES } from '../pipeline/audit/consistency-audit.ts'
import { AGGREGATOR_RULES } from '../pipeline/feeds/aggregator-defaults.ts'
import { USPS_CITY_RULE } from '../pipeline/audit/rule-audit.ts'
import { feedTraits } from '../snapshot-contract/feed-traits.ts'
import { RateIndex } from '../snapshot-contract/rate-index.ts'
import { formatRate } from '../snapshot-contract/rate-units.ts'
import { loadSnapshot } from '../snapshot-contract/snapshot-store.ts'
import { avalaraRows, dropCombined, lookupArtifacts, type LookupArtifacts } from './support/lookup-snapshots.ts'
import { PROJECT_ROOT, sharedPath } from './support/shared.ts'
import { tempDir } from './support/temp-dirs.ts'

const AS_OF = '2026-11-21'
const DROP_EDITION = '202512'

let artifacts: LookupArtifacts
let index: RateIndex
let audited: string[]
let stdout: string
let disagreements: Record<string, string>[]
let summary: Record<string, string>[]
let auditDoc: string

beforeAll(async () => {
  artifacts = await lookupArtifacts(inject('mirrorUrl'))
  const snapshot = await loadSnapshot(artifacts.dir, artifacts.currentId)
  index = new RateIndex(snapshot.files['rates.bin'])
  audited = snapshot.manifest.states.filter((s) => feedTraits(s.feed).sourceKind === 'official' && index.states.includes(s.code)).map((s) => s.code)
  const build = await tempDir('audit-build')
  const docPath = path.join(build, 'audit.md')
  const run = await execa('make', ['-s', 'audit', `SNAPSHOT=${artifacts.currentId}`, `AS_OF=${AS_OF}`, `AUDIT_DOCS=${docPath}`], {
    cwd: PROJECT_ROOT,
    env: { TAXATLAS_ARTIFACTS: artifacts.dir, TAXATLAS_BUILD: build, TAXATLAS_DROPS: sharedPath('drops'), TAXATLAS_GEO: sharedPath('geo') },
  })
  stdout = run.stdout
  const csv = (name: string) => readFile(path.join(build, name), 'utf8').then((text) => Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data)
  disagreements = await csv(`audit-${artifacts.currentId}.csv`)
  summary = await csv(`audit-${artifacts.currentId}-summary.csv`)
  auditDoc = await readFile(docPath, 'utf8')
}, 600_000)

/** The rows of the markdown table under `heading` in the audit document, by column name. */
function docTable(heading: string): Record<string, string>[] {
  const section = auditDoc.slice(auditDoc.indexOf(heading))
  const lines = section.split('\n').filter((line) => line.startsWith('|'))
  const end = lines.findIndex((line, i) => i > 1 && !line.startsWith('|'))
  const [header, , ...rows] = lines.slice(0, end === -1 ? undefined : end)
  const cells = (line: string) => line.split('|').slice(1, -1).map((cell) => cell.trim())
  return rows.map((row) => Object.fromEntries(cells(header!).map((name, i) => [name, cells(row)[i]!])))
}

/** The default answer's combined rate of each ZIP of a state in the snapshot. */
function officialRates(state: string): Map<string, number> {
  const rates = new Map<string, number>()
  for (const i of index.entriesOfState(state)) {
    const entry = index.entryAt(i)
    rates.set(entry.zip, index.combinedRate(entry.candidates[0]!.stack, AS_OF))
  }
  return rates
}

describe('make audit', () => {
  it('audits every state served from an official file (CA, GA, MN, WI, and any other official feed in service)', () => {
    expect(audited).toEqual(expect.arrayContaining(['CA', 'GA', 'MN', 'WI']))
    expect(summary.map((row) => row.state)).toEqual([...audited, 'all'])
    for (const state of audited) expect(stdout).toMatch(new RegExp(`^${state}\\s+\\d+\\s+\\d+\\.\\d%`, 'm'))
  })

  it('prints the share of ZIPs where the aggregator\'s figure is the official rate of the covering place, as the files give it', async () => {
    for (const state of audited) {
      const drop = await avalaraRows(state, DROP_EDITION)
      const official = officialRates(state)
      const both = [...drop.keys()].filter((zip) => official.has(zip))
      const agree = both.filter((zip) => dropCombined(drop.get(zip)!) === official.get(zip))
      const row = summary.find((r) => r.state === state)!
      expect(Number(row.zips), state).toBe(both.length)
      expect(row['aggregator = official'], state).toBe(`${((agree.length / both.length) * 100).toFixed(1)}%`)
      // Every other ZIP is listed as a disagreement, with the two rates.
      const listed = disagreements.filter((d) => d.state === state)
      expect(listed.length, state).toBe(both.length - agree.length)
      for (const d of listed) {
        expect(d.official_rate, `${state} ${d.zip}`).toBe(formatRate(official.get(d.zip)!))
        expect(d.aggregator_rate, `${state} ${d.zip}`).toBe(formatRate(dropCombined(drop.get(d.zip)!)))
      }
    }
  })

  it('classifies every disagreement, and each class holds: an edition difference is the official rate on the edition\'s date', () => {
    expect(disagreements.length).toBeGreaterThan(0)
    for (const d of disagreements) expect(DISAGREEMENT_CLASSES, `${d.state} ${d.zip}`).toContain(d.class)
    const edition = disagreements.filter((d) => d.class === 'edition')
    // Georgia's rates changed between the December 2025 drop and the 2026 Q2 rate file.
    expect(edition.filter((d) => d.state === 'GA').length).toBeGreaterThan(50)
    for (const d of edition) {
      const [entry] = index.lookupZip(d.zip).filter((e) => e.state === d.state)
      expect(formatRate(index.combinedRate(entry!.candidates[0]!.stack, '2025-12-01')), `${d.state} ${d.zip}`).toBe(d.aggregator_rate)
    }
    for (const d of disagreements.filter((x) => x.class === 'sub_zip_district')) expect(d.aggregator_rate > d.official_rate, `${d.state} ${d.zip}`).toBe(true)
    // The service's rules bring the aggregator's defaults nearer the official rates than its rows are.
    const all = summary.find((r) => r.state === 'all')!
    expect(parseFloat(all['default = official']!)).toBeGreaterThan(parseFloat(all['aggregator = official']!))
  })

  it('writes each default rule\'s effect per official state, and the rules\' figures chosen without the state they are scored on', () => {
    expect(auditDoc).toContain(`Snapshot \`${artifacts.currentId}\``)
    const effects = docTable('## Each rule, state by state')
    for (const state of audited) {
      const rows = effects.filter((row) => row.state === state)
      expect(rows.map((row) => row.rule).sort(), state).toEqual([...AGGREGATOR_RULES, USPS_CITY_RULE].sort())
      // The aggregator rules are judged on one compile with every rule in force.
      const aggregatorRules = rows.filter((row) => row.rule !== USPS_CITY_RULE)
      expect(new Set(aggregatorRules.map((row) => row['with rule'])).size, state).toBe(1)
      for (const row of rows) {
        const net = Number(row.net)
        // A rule that changes no default cannot change agreement; a net change needs that many touched ZIPs.
        expect(Math.abs(net), `${state} ${row.rule}`).toBeLessThanOrEqual(Number(row.touched))
        const zips = Number(row.zips)
        const agreeing = (cell: string) => Math.round((parseFloat(cell) / 100) * zips)
        // The percentages carry one decimal: the net they imply is exact to a thousandth of the ZIPs.
        expect(Math.abs(agreeing(row['with rule']!) - agreeing(row['without rule']!) - net), `${state} ${row.rule}`).toBeLessThanOrEqual(Math.ceil(zips * 0.001))
        expect(row.verdict, `${state} ${row.rule}`).toBe(net <= -Math.max(3, Math.ceil(zips * 0.003)) ? 'lowers agreement' : net >= Math.max(3, Math.ceil(zips * 0.003)) ? 'raises agreement' : 'within noise')
      }
    }
    // No shipped rule lowers agreement in an official state beyond noise.
    expect(effects.filter((row) => row.verdict === 'lowers agreement')).toEqual([])
    const heldOut = docTable('## The rules\' figures')
    expect(heldOut.map((row) => row['held-out state'])).toEqual(audited)
  })
})
