// Snapshots built from the 2018-04 and 2025-12 drop editions, and the real changes between them.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { execa } from 'execa'
import Papa from 'papaparse'
import { beforeAll, describe, expect, it } from 'vitest'
import { RateIndex } from '../snapshot-contract/rate-index.ts'
import { parseRateFraction } from '../snapshot-contract/rate-units.ts'
import { defaultZipRates, diffZipRates, type ZipChange } from '../pipeline/run/snapshot-diff.ts'
import { loadSnapshot } from '../snapshot-contract/snapshot-store.ts'
import { openStaging } from '../pipeline/run/staging.ts'
import { heldDrops } from './support/held-drops.ts'
import { pipelineSettings, runRefresh } from './support/refresh-run.ts'
import { PROJECT_ROOT, sharedPath } from './support/shared.ts'
import { tempDir } from './support/temp-dirs.ts'

const STATES = ['LA', 'SD', 'TX']

/** Each ZIP's combined rate read straight from a drop file: the sum of its parts at the served precision. */
async function ratesInFile(state: string, edition: string): Promise<Map<string, number>> {
  const text = await readFile(sharedPath('drops/avalara-zip5', edition, `TAXRATES_ZIP5_${state}${edition}.csv`), 'utf8')
  const rows = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data
  const round = (value: string) => {
    const [whole, fraction = ''] = value.split('.')
    const units = parseRateFraction(`${whole}.${fraction.slice(0, 5)}`)
    if (!units.ok) throw new Error(units.reason)
    return units.units + (Number(fraction[5] ?? '0') >= 5 ? 1 : 0)
  }
  const parts = ['StateRate', 'EstimatedCountyRate', 'EstimatedCityRate', 'EstimatedSpecialRate']
  return new Map(rows.map((row) => [row.ZipCode, parts.reduce((sum, part) => sum + round(row[part]), 0)]))
}

describe('make diff between the 201804 and 202512 drop editions', () => {
  let artifacts: string
  let older: string
  let newer: string
  let changes: ZipChange[]
  beforeAll(async () => {
    artifacts = await tempDir('artifacts')
    const build = await tempDir('build')
    const states = STATES.join(',')
    older = (await runRefresh(pipelineSettings({ mirror: sharedPath('mirror'), artifacts, build, drops: await heldDrops(states, { editions: ['201804'] }), states, now: '2026-11-20T03:00:00.000Z' }))).manifest!.snapshot
    newer = (await runRefresh(pipelineSettings({ mirror: sharedPath('mirror'), artifacts, build, drops: await heldDrops(states, { editions: ['202512'] }), states, now: '2026-11-21T03:00:00.000Z' }))).manifest!.snapshot
    const staging = await openStaging(null)
    const before = new RateIndex((await loadSnapshot(artifacts, older)).files['rates.bin'])
    const after = new RateIndex((await loadSnapshot(artifacts, newer)).files['rates.bin'])
    changes = await diffZipRates(staging.connection, defaultZipRates(before, '2026-11-21'), defaultZipRates(after, '2026-11-21'))
    staging.close()
    for (const index of [before, after]) {
      for (const state of STATES) for (const i of index.entriesOfState(state)) if (index.entryAt(i).candidates[0]!.basis === 'usual_rate') restated.add(`${state} ${index.entryAt(i).zip}`)
    }
  })
  // ZIPs whose row yields to its city's (or county's) agreed rate in either edition (pipeline/feeds/aggregator-defaults.ts), under 20% of a state's.
  const restated = new Set<string>()

  it('re-rates exactly the ZIPs whose published rate moved between the editions', async () => {
    for (const state of STATES) {
      const [then, now] = [await ratesInFile(state, '201804'), await ratesInFile(state, '202512')]
      const ownRow = (zip: string) => !restated.has(`${state} ${zip}`)
      const rerated = changes.filter((c) => c.state === state && c.change === 'rerated' && ownRow(c.zip))
      const expected = [...now.keys()].filter((zip) => then.has(zip) && then.get(zip) !== now.get(zip) && ownRow(zip))
      expect([...restated].filter((key) => key.startsWith(state)).length, state).toBeLessThan(now.size * 0.2)
      // every re-rated ZIP moved in the files, by exactly what the files say
      for (const change of rerated) {
        expect(then.get(change.zip), `${state} ${change.zip}`).toBe(parseRateFraction(change.before!).ok && (parseRateFraction(change.before!) as { units: number }).units)
        expect(now.get(change.zip), `${state} ${change.zip}`).toBe((parseRateFraction(change.after!) as { units: number }).units)
      }
      // and no moved ZIP was missed (a few border or withheld ZIPs may be served by neither snapshot)
      const seen = new Set(rerated.map((c) => c.zip))
      const missed = expected.filter((zip) => !seen.has(zip))
      expect(missed.length, `${state} missed ${missed.slice(0, 5)}`).toBeLessThanOrEqual(expected.length * 0.01)
      expect(rerated.length, state).toBeGreaterThan(0)
    }
  })

  it('reports ZIPs added and removed between the editions', async () => {
    const [then, now] = [await ratesInFile('TX', '201804'), await ratesInFile('TX', '202512')]
    const of = (kind: ZipChange['change']) => changes.filter((c) => c.state === 'TX' && c.change === kind)
    for (const c of of('added')) expect(now.get(c.zip), c.zip).toBe((parseRateFraction(c.after!) as { units: number }).units)
    for (const c of of('removed')) expect(then.get(c.zip), c.zip).toBe((parseRateFraction(c.before!) as { units: number }).units)
    const newInFile = [...now.keys()].filter((zip) => !then.has(zip))
    expect(of('added').length).toBeGreaterThan(0)
    expect(of('added').length).toBeLessThanOrEqual(newInFile.length)
    expect(changes.every((c) => (c.change === 'added') === (c.before === null))).toBe(true)
  })

  it('prints the table and writes the CSV through make diff', async () => {
    const build = await tempDir('build')
    const result = await execa('make', ['-s', 'diff', `FROM=${older}`, `TO=${newer}`, 'AS_OF=2026-11-21'], {
      cwd: PROJECT_ROOT,
      env: { TAXATLAS_ARTIFACTS: artifacts, TAXATLAS_BUILD: build },
    })
    expect(result.stdout).toMatch(/state\s+added\s+removed\s+re-rated/)
    const laLine = result.stdout.split('\n').find((line) => /^LA\s+\d+\s+\d+\s+\d+$/.test(line))
    expect(laLine?.split(/\s+/)[3]).toBe(String(changes.filter((c) => c.state === 'LA' && c.change === 'rerated').length))
    const csv = await readFile(path.join(build, `diff-${older}-${newer}.csv`), 'utf8')
    expect(csv.trim().split('\n')).toHaveLength(changes.length + 1)
    expect(csv.split('\n')[0]).toBe('state,zip,change,before,after')
  })
})
