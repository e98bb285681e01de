// An official state (GA, SST) loaded with and without an Avalara drop beside it: the drop only places
// the ZIPs the geography lacks (P28), and a drop that cannot be read (P3: two files where one is
// expected) leaves the official result whole, with a note, instead of failing the state.
import { copyFile, mkdir } from 'node:fs/promises'
import path from 'node:path'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { buildGeography } from '../pipeline/geography/build-geography.ts'
import type { Geography } from '../snapshot-contract/geography-model.ts'
import { loadFeed } from '../pipeline/run/load-state.ts'
import { Listings } from '../pipeline/fetch/source-listing.ts'
import type { FeedResult } from '../snapshot-contract/model.ts'
import { stateByCode } from '../sources/index.ts'
import { pipelineSettings } from './support/refresh-run.ts'
import { sharedPath } from './support/shared.ts'
import { tempDir } from './support/temp-dirs.ts'

const GA = stateByCode('GA')!
const DROP = 'TAXRATES_ZIP5_GA202512.csv'

describe('loadFeed of an official state and the drops', () => {
  let geography: Geography
  const load = async (drops: string): Promise<FeedResult> => {
    const settings = pipelineSettings({ mirror: inject('mirrorUrl'), artifacts: await tempDir('art'), build: await tempDir('build'), drops })
    return loadFeed(GA, GA.feeds[0]!, { settings, geography, listings: new Listings(settings) })
  }
  const zipsOf = (result: FeedResult) => new Set(result.candidates.map((c) => c.zip))

  beforeAll(async () => {
    geography = await buildGeography(sharedPath('geo'), { states: ['GA'] })
  })

  it('adds only ZIPs the geography lacks, and the drop to the sources', async () => {
    const without = await load(await tempDir('no-drops'))
    const withDrop = await load(sharedPath('drops'))
    expect(without.files.map((f) => f.name)).toEqual(['GAR2026Q2FEB19.csv'])
    expect(withDrop.files.map((f) => f.name)).toEqual(['GAR2026Q2FEB19.csv', DROP])
    const added = [...zipsOf(withDrop)].filter((zip) => !zipsOf(without).has(zip))
    expect(added.length).toBeGreaterThan(0)
    for (const zip of added) expect(geography.zips.has(zip), zip).toBe(false)
    expect(withDrop.candidates.slice(0, without.candidates.length)).toEqual(without.candidates)
    expect(withDrop.jurisdictions).toEqual(without.jurisdictions)
  })

  it('keeps the official result whole, with a note, when the drop cannot be read', async () => {
    const drops = await tempDir('two-drops')
    for (const dir of ['a', 'b']) {
      await mkdir(path.join(drops, dir))
      await copyFile(sharedPath('drops/avalara-zip5/202512', DROP), path.join(drops, dir, DROP))
    }
    const without = await load(await tempDir('no-drops'))
    const result = await load(drops)
    expect(result.candidates).toEqual(without.candidates)
    expect(result.files).toEqual(without.files)
    expect(result.notes.at(-1)).toMatch(/^ZIPs the ZIP geography lacks left unplaced: the aggregator drop could not be read \(two GA drops of edition 202512/)
  })
})
