// The server decides behaviour from a feed's traits, never from its name: a manifest naming a feed
// the contract does not know is refused, and no server module compares feed names.
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { FEED_TRAITS, FeedKind, isStatewide } from '../snapshot-contract/feed-traits.ts'
import { StateRecord } from '../snapshot-contract/manifest.ts'
import { STATES } from '../sources/index.ts'

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true })
  return entries.filter((e) => e.isFile() && e.name.endsWith('.ts')).map((e) => path.join(e.parentPath, e.name))
}

describe('feed traits', () => {
  it('every feed kind of the contract has traits, and every descriptor names one of them', () => {
    expect(Object.keys(FEED_TRAITS).sort()).toEqual([...FeedKind.options].sort())
    for (const state of STATES) for (const feed of state.feeds) expect(FeedKind.options).toContain(feed.kind)
  })

  it('a state record naming an unknown feed is refused instead of falling back', () => {
    const feed = StateRecord.shape.feed
    expect(feed.safeParse('avalara-zip5').success).toBe(true)
    expect(feed.safeParse('zip-tax').success).toBe(false)
  })

  it('only a static state of a statewide feed answers one rate everywhere', () => {
    expect(isStatewide({ feed: 'statutory', klass: 'static' })).toBe(true)
    expect(isStatewide({ feed: 'statutory', klass: 'reload' })).toBe(false)
    expect(isStatewide({ feed: 'sst', klass: 'static' })).toBe(false)
  })

  it('no server or snapshot-contract module compares a feed name outside the traits table', async () => {
    const names = FeedKind.options.map((kind) => kind.replace(/[-]/g, '\\-')).join('|')
    const comparison = new RegExp(`[!=]==?\\s*['"](${names})['"]|['"](${names})['"]\\s*[!=]==?|case\\s+['"](${names})['"]`)
    const offenders: string[] = []
    for (const file of [...(await sourceFiles('server')), ...(await sourceFiles('snapshot-contract'))]) {
      if (file.endsWith('feed-traits.ts')) continue
      const text = await readFile(file, 'utf8')
      text.split('\n').forEach((line, i) => { if (comparison.test(line)) offenders.push(`${file}:${i + 1}: ${line.trim()}`) })
    }
    expect(offenders).toEqual([])
  })
})
