// The pipeline asks a feed what to do through its adapter (pipeline/feeds/adapter-table.ts), never
// by its name: every feed kind has an adapter, no pipeline or descriptor module compares feed names,
// and the checks a state's descriptor asks for (its anchors, the operator's pins) reach every feed.
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { assertPinsUsable, isOlderEdition } from '../pipeline/run/edition-rules.ts'
import { FEED_ADAPTERS } from '../pipeline/feeds/adapter-table.ts'
import { readPipelineSettings } from '../pipeline/settings.ts'
import { checkAnchors } from '../pipeline/run/validate-state.ts'
import { FeedKind } from '../snapshot-contract/feed-traits.ts'
import { RateIndex, writeRateIndex } from '../snapshot-contract/rate-index.ts'
import { STATES } from '../sources/index.ts'

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true })
  return entries.filter((e) => e.isFile() && e.name.endsWith('.ts')).map((e) => path.join(e.parentPath, e.name))
}

/** Data of no state: every anchor held to it diverges. */
const noData = new RateIndex(new Uint8Array(writeRateIndex({ states: [], zipMeta: () => undefined })))

describe('feed adapters', () => {
  it('every feed kind of the contract has its own adapter', () => {
    expect(Object.keys(FEED_ADAPTERS).sort()).toEqual([...FeedKind.options].sort())
    for (const kind of FeedKind.options) expect(FEED_ADAPTERS[kind].kind).toBe(kind)
  })

  it('no pipeline or descriptor module compares a feed name', async () => {
    const names = FeedKind.options.map((kind) => kind.replace(/[-]/g, '\\-')).join('|')
    const comparison = new RegExp(`[!=]==?\\s*['"](${names})['"]|['"](${names})['"]\\s*[!=]==?|case\\s+['"](${names})['"]`)
    const offenders: string[] = []
    for (const file of [...(await sourceFiles('pipeline')), ...(await sourceFiles('sources'))]) {
      const text = await readFile(file, 'utf8')
      text.split('\n').forEach((line, i) => { if (comparison.test(line)) offenders.push(`${file}:${i + 1}: ${line.trim()}`) })
    }
    expect(offenders).toEqual([])
  })

  it('every anchor of every state is checked against the data of the feed it was read from', () => {
    const anchored = STATES.filter((state) => state.anchors.length > 0)
    expect(new Set(anchored.flatMap((state) => state.anchors.map((anchor) => anchor.feed))).size).toBeGreaterThan(3)
    for (const state of anchored) {
      for (const kind of new Set(state.anchors.map((anchor) => anchor.feed))) {
        const results = checkAnchors(noData, state, kind, { from: null, through: '9999-12-31' })
        expect(results.map((r) => `${state.code} ${r.zip} ${r.outcome}`)).toEqual(state.anchors.filter((a) => a.feed === kind).map((a) => `${state.code} ${a.zip} diverged`))
      }
    }
  })

  it("every anchored state's pins are checked against its feeds' adapters: a file none of them publishes is refused", () => {
    for (const state of STATES.filter((s) => s.anchors.length > 0)) {
      const settings = readPipelineSettings({ TAXATLAS_PIN: `${state.code}=not-an-edition.bin` })
      expect(() => assertPinsUsable(state, settings), state.code).toThrow(`TAXATLAS_PIN names not-an-edition.bin for ${state.code}, which none of its feeds (${state.feeds.map((f) => f.kind).join(', ')}) publishes`)
    }
  })

  it('an edition older than the one in service is refused by the feeds whose editions are dated', () => {
    expect(isOlderEdition('sst', '2026Q1JAN15', '2026Q2FEB18')).toBe(true)
    expect(isOlderEdition('sst', '2026Q2FEB18', '2026Q2FEB18')).toBe(false)
    for (const kind of ['cdtfa', 'az-dor-tpt', 'mo-dor', 'co-dor', 'nm-trd-grt', 'ak-arsstc'] as const) {
      expect(isOlderEdition(kind, '2025-12-31', '2026-01-01'), kind).toBe(true)
      expect(isOlderEdition(kind, '2026-01-01', '2025-12-31'), kind).toBe(false)
    }
    expect(isOlderEdition('tx-comptroller', '2026Q1', '2026Q2')).toBe(true)
    // a current file, or an edition named by the day it was fetched, has no order to refuse by
    for (const kind of ['idor-ordmache', 'va-tax', 'fl-dor-surtax', 'al-dor', 'avalara-zip5', 'statutory'] as const) expect(isOlderEdition(kind, '2025-12-31', '2026-01-01'), kind).toBe(false)
  })
})
