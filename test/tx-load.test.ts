// Texas at the load: the rate file discovered on a mirror served over loopback HTTP
// (<mirror>/tx-comptroller/) and, as production runs, at comptroller.texas.gov through the publisher
// replica in a process of its own; bad files refused with a clear reason, and the trial against the
// aggregator drop judged (pipeline/run/official-trial.ts), on the real TX geography and drop.
import { describe, expect, it } from 'vitest'
import { compileState, fetchStateSources, loadFeed } from '../pipeline/run/load-state.ts'
import { NoFileForState } from '../pipeline/fetch/no-file-for-state.ts'
import { judgeTrial } from '../pipeline/run/official-trial.ts'
import { defaultCombinedRate, withholdViolations } from '../pipeline/run/validate-state.ts'
import type { StateRecord } from '../snapshot-contract/manifest.ts'
import { TX_EDI_PAGE, TX_RATES_FILE } from '../sources/descriptor.ts'
import TX from '../sources/tx.ts'
import { stateIndex, zipsWholly } from './support/feed-answers.ts'
import { loadedFeed, loadFeedAtPublisher } from './support/feed-load-process.ts'
import { feedTestBed } from './support/load-context.ts'
import type { PublisherReplica } from './support/publisher-replica.ts'
import { tempDir } from './support/refresh-run.ts'
import { HOUSTON, METRO, txRateFile, txUnits } from './support/tx-rate-fixture.ts'

const OFFICIAL = TX.feeds[0]!
const NOW = '2026-11-21T03:00:00.000Z'
const bed = feedTestBed('TX', NOW)
const { context, dirs } = bed

describe('finding the Texas rate file', () => {
  it('takes the current taxrates.txt the page links', async () => {
    await bed.mirror.publish({ 'tx-comptroller/taxrates.txt': txRateFile(), 'tx-comptroller/taxrates262.txt': txRateFile({ quarter: '20262' }) })
    const sources = await fetchStateSources(TX, OFFICIAL, await context())
    expect(sources.choices[0]).toMatchObject({ edition: 'current', pinned: false, request: { fileName: 'taxrates.txt' } })
  })

  it('without a current file, takes the newest dated file whose quarter has begun and holds a later one', async () => {
    await bed.mirror.publish({ 'tx-comptroller/taxrates263.txt': txRateFile(), 'tx-comptroller/taxrates271.txt': txRateFile({ quarter: '20271' }), 'tx-comptroller/taxrates262.txt': txRateFile({ quarter: '20262' }) })
    const sources = await fetchStateSources(TX, OFFICIAL, await context())
    expect(sources.choices[0]).toMatchObject({ edition: '2026Q3', request: { fileName: 'taxrates263.txt' } })
    expect(sources.choices[0]!.how).toMatch(/held until their quarter: taxrates271\.txt \(from 2027-01-01\)/)
  })

  it('takes the edition the operator pins, and refuses a pin no Texas feed publishes', async () => {
    await bed.mirror.publish({ 'tx-comptroller/taxrates.txt': txRateFile(), 'tx-comptroller/taxrates262.txt': txRateFile({ quarter: '20262' }) })
    const pinned = await fetchStateSources(TX, OFFICIAL, await context({ TAXATLAS_PIN: 'TX=taxrates262.txt' }))
    expect(pinned.choices[0]).toMatchObject({ edition: '2026Q2', pinned: true, request: { fileName: 'taxrates262.txt' } })
    await expect(fetchStateSources(TX, OFFICIAL, await context({ TAXATLAS_PIN: 'TX=rates.csv' }))).rejects.toThrow(/TAXATLAS_PIN names rates\.csv for TX, which none of its feeds/)
  })
})

describe('a mirror without the feed', () => {
  it('has no file for Texas, rather than failing, when the mirror carries no tx-comptroller folder', async () => {
    await bed.mirror.publish({})
    await expect(fetchStateSources(TX, OFFICIAL, await context())).rejects.toBeInstanceOf(NoFileForState)
  })
})

describe('bad files', () => {
  it('holds a file whose quarter has not begun until its date', async () => {
    await bed.mirror.publish({ 'tx-comptroller/taxrates.txt': txRateFile({ quarter: '20271' }) })
    await expect(loadFeed(TX, OFFICIAL, await context())).rejects.toThrow(/taxrates\.txt: its rates take effect on 2027-01-01, after today \(2026-11-21\); held until then/)
  })

  it('refuses a sign-in page served in place of the file', async () => {
    await bed.mirror.publish({ 'tx-comptroller/taxrates.txt': '<!DOCTYPE html><html><head><title>Sign in</title></head><body><form></form></body></html>' })
    await expect(fetchStateSources(TX, OFFICIAL, await context())).rejects.toThrow(/taxrates\.txt: the server answered an HTML page \("Sign in"\) in place of the file/)
  })

  it('refuses a PDF served in place of the file', async () => {
    await bed.mirror.publish({ 'tx-comptroller/taxrates.txt': '%PDF-1.7\n1 0 obj\n<<>>\nendobj\n' })
    await expect(fetchStateSources(TX, OFFICIAL, await context())).rejects.toThrow(/taxrates\.txt: the server answered a PDF document in place of the file/)
  })
})

describe('the trial against the aggregator drop', () => {
  async function judged(extra: Record<string, string> = {}, drops?: string, inService: StateRecord | null = null) {
    await bed.mirror.publish({ 'tx-comptroller/taxrates.txt': txRateFile() })
    const ctx = await context(extra, drops)
    const sources = await fetchStateSources(TX, OFFICIAL, ctx)
    const loaded = withholdViolations(await compileState(TX, OFFICIAL, sources, ctx), TX, NOW.slice(0, 10), () => undefined, null)
    return judgeTrial({ descriptor: TX, feed: OFFICIAL, inService, result: loaded.result, index: loaded.index, sources, geography: bed.geography, asOf: NOW.slice(0, 10), settings: ctx.settings })
  }

  it('holds back a feed disagreeing on more ZIPs than the limit, the comparison by class in the reason', async () => {
    const verdict = await judged()
    expect(verdict.held).toMatch(/tx-comptroller on trial held back, the aggregator keeps serving: tx-comptroller 2026Q3 against aggregator edition 202512 on 2026-11-21: (\d+) of (\d+) ZIPs disagree/)
    expect(verdict.held).toMatch(/\[(edition|neighbour_region|unplaced_tax|sub_zip_district|other) \d+/)
    expect(verdict.trial!.disagreement_share).toBeGreaterThan(0.4)
    const { zips, agreeing, by_class } = verdict.trial!
    // the audit classes every ZIP whose aggregator row differs; the default may agree where the row does not
    expect(Object.values(by_class).reduce((a, b) => a + b, 0)).toBeGreaterThan(0)
    expect(agreeing).toBeLessThan(zips * 0.6)
  })

  it('lets it serve under a limit its disagreement fits, or once the operator accepts the state', async () => {
    const loose = await judged({ TAXATLAS_TRIAL_DISAGREEMENT_LIMIT: '1' })
    expect(loose.held).toBeNull()
    expect(loose.trial).toMatchObject({ accepted: false, limit: 1 })
    expect(loose.notes[0]).toMatch(/^tx-comptroller on trial, replaces the aggregator:/)
    const accepted = await judged({ TAXATLAS_ACCEPT_OFFICIAL: 'TX' })
    expect(accepted.held).toBeNull()
    expect(accepted.trial).toMatchObject({ accepted: true, limit: 0.4 })
  })

  it('has nothing to judge once the feed is the one in service, or when no drop of the state is held', async () => {
    const inService = { feed: 'tx-comptroller' } as StateRecord
    expect(await judged({}, undefined, inService)).toEqual({ trial: null, held: null, notes: [] })
    const empty = await tempDir('tx-drops')
    dirs.push(empty)
    const undropped = await judged({}, empty)
    expect(undropped.held).toBeNull()
    expect(undropped.notes).toEqual(['tx-comptroller on trial: not compared with the aggregator, no aggregator drop of the state is held'])
  })
})

/** The EDI page as the Comptroller links its files: the current one and the archived quarters, by path. */
const ediPage = (files: string[]) =>
  `<!DOCTYPE html><html><head><title>Sales Tax Rate Files (EDI)</title></head><body><h1>Sales and Use Tax Rates</h1><ul>${files.map((file) => `<li><a href="/data/edi/sales-tax/${file}">${file}</a></li>`).join('')}</ul><a href="/taxes/sales/city.php">City Sales and Use Tax</a></body></html>`

describe('through the publisher replica, as production runs', () => {
  const HOST = new URL(TX_EDI_PAGE).host
  const serveEdiPage = (replica: PublisherReplica) => replica.answer(TX_EDI_PAGE, { kind: 'page', html: ediPage(['taxrates.txt', 'taxrates262.txt']) })

  it('finds taxrates.txt from the EDI page at comptroller.texas.gov through the proxy, and answers a Houston ZIP from it', async () => {
    const load = await loadFeedAtPublisher('TX', NOW, [HOST], async (replica) => {
      serveEdiPage(replica)
      await replica.serveBytes(TX_RATES_FILE, txRateFile())
    })
    const loaded = loadedFeed(load)
    expect(loaded.choices[0]).toMatchObject({ edition: 'current', request: { fileName: 'taxrates.txt', officialUrl: TX_RATES_FILE } })
    expect(loaded.result.edition).toBe('2026Q3')
    expect(loaded.result.files.map((f) => f.url).filter((url) => url.startsWith('https:'))).toEqual([TX_RATES_FILE])
    const houston = zipsWholly(loaded.result, '48201', '4835000')
    expect(houston.length).toBeGreaterThan(0)
    expect(defaultCombinedRate(stateIndex('TX', loaded.result), houston[0]!, 'TX', NOW.slice(0, 10))).toBe(6250 + txUnits(HOUSTON[2]) + txUnits(METRO[2]))
    expect(load.tunnels).toContain(HOST)
  }, 120_000)

  it('fails with a note naming the file, its address and the 404 when the file is gone between the page and the download', async () => {
    const { outcome } = await loadFeedAtPublisher('TX', NOW, [HOST], serveEdiPage)
    expect(outcome).toEqual({ error: expect.stringMatching(/taxrates\.txt: GET https:\/\/comptroller\.texas\.gov\/data\/edi\/sales-tax\/taxrates\.txt through the proxy http:\/\/127\.0\.0\.1:\d+ failed: .*404/) })
  }, 120_000)
})
