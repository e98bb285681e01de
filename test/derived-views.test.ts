// The views the server derives from a snapshot (server/snapshot/derived-views.ts) belong to that
// snapshot: each is built once, on first use, and a snapshot opened anew starts with none.
import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { factsOf } from '../server/lookup/snapshot-facts.ts'
import { DerivedViews, derivedView } from '../server/snapshot/derived-views.ts'
import { openSnapshot } from '../server/snapshot/open-snapshot.ts'
import { summaryRates } from '../server/taxjar/summary-rates.ts'
import { artifactsWithSnapshot } from './support/server-snapshot.ts'

describe('a derived view', () => {
  it('is built once per snapshot, the first time it is asked for, and apart for each snapshot', () => {
    let builds = 0
    const lengths = derivedView('id length', (snapshot: { id: string; derived: DerivedViews }) => {
      builds++
      return snapshot.id.length
    })
    const [a, b] = [{ id: 'a', derived: new DerivedViews() }, { id: 'bb', derived: new DerivedViews() }]
    expect(a.derived.built).toEqual([])
    expect([lengths.of(a), lengths.of(a), lengths.of(b)]).toEqual([1, 1, 2])
    expect(builds).toBe(2)
    expect(a.derived.built).toEqual(['id length'])
  })
})

describe("a snapshot's derived views", () => {
  let artifacts: { dir: string; id: string }
  beforeAll(async () => {
    artifacts = await artifactsWithSnapshot(inject('mirrorUrl'))
  })
  afterAll(async () => {
    if (artifacts) await rm(artifacts.dir, { recursive: true, force: true })
  })

  it('start empty when it opens, hold what lookups and summary rates derived, and a snapshot opened anew derives its own', async () => {
    const first = await openSnapshot(artifacts.dir, artifacts.id, Date.now())
    expect(first.derived.built).toEqual([])
    const facts = factsOf(first)
    const rows = summaryRates(first, '2026-07-01')
    expect(factsOf(first)).toBe(facts)
    expect(summaryRates(first, '2026-07-01')).toBe(rows)
    expect(first.derived.built.sort()).toEqual(['lookup facts', 'summary rates'])

    const again = await openSnapshot(artifacts.dir, artifacts.id, Date.now())
    expect(again.derived.built).toEqual([])
    expect(factsOf(again)).not.toBe(facts)
    expect(summaryRates(again, '2026-07-01')).toEqual(rows)
  })
})
