// Texas: the Comptroller's EDI rate file, the current `taxrates.txt` or a quarter's `taxrates{YY}{Q}.txt`.
import { compileTxComptroller } from './compile.ts'
import { parseTxRateFile, quarterStart } from './rate-file.ts'
import { CURRENT_EDITION, currentFileChoice, listingOrNoFile, pinnedChoice, pinsOf, type ChoiceContext, type EditionChoice } from '../../fetch/edition-choice.ts'
import type { FeedAdapter } from '../feed-adapter.ts'
import { assertInEffect, oneFileAdapter, textOf } from '../feed-files.ts'

/** The Texas Comptroller's rate file: `taxrates.txt` (the current quarter) or `taxrates{YY}{Q}.txt` (`taxrates263.txt` = 2026 Q3). */
const TX_RATE_FILE = /^taxrates(?:(\d{2})([1-4]))?\.txt$/i
/** `2026Q3` of a dated Texas file name; null for the undated current file. */
const txQuarterOf = (name: string): string | null => {
  const match = TX_RATE_FILE.exec(name)
  return match?.[1] ? `20${match[1]}Q${match[2]}` : null
}
const QUARTER = /^\d{4}Q[1-4]$/

/**
 * The Texas rate file: the current `taxrates.txt` when the EDI page links it (its control record
 * says its quarter, checked after reading), else the newest `taxrates{YY}{Q}.txt` whose quarter has
 * begun (a later one is held until its quarter), else the current file at its fixed address.
 */
export async function chooseTxRateFile(feed: { pageUrl: string; fileUrl: string }, context: ChoiceContext): Promise<EditionChoice> {
  const pinned = pinsOf('TX', context.settings).find((name) => TX_RATE_FILE.test(name))
  if (pinned) return pinnedChoice('tx-comptroller', pinned, feed.fileUrl, txQuarterOf(pinned) ?? 'current')
  const listing = await listingOrNoFile('tx-comptroller', feed.pageUrl, context)
  const listed = listing.files.filter((file) => TX_RATE_FILE.test(file.name))
  const page = `${listing.where}${listing.cache === 'not-modified' ? ' (page not modified)' : ''}`
  const current = listed.find((file) => txQuarterOf(file.name) === null)
  if (current) {
    return { request: { feed: 'tx-comptroller', fileName: current.name, officialUrl: current.officialUrl }, edition: CURRENT_EDITION, pinned: false, how: `${current.name}: the current rate file linked from ${page}` }
  }
  const today = context.settings.now.toISOString().slice(0, 10)
  const dated = listed.map((file) => ({ file, edition: txQuarterOf(file.name)! })).sort((a, b) => b.edition.localeCompare(a.edition))
  const inEffect = dated.filter((d) => quarterStart(d.edition) <= today)
  const held = dated.filter((d) => quarterStart(d.edition) > today).map((d) => `${d.file.name} (from ${quarterStart(d.edition)})`)
  const heldNote = held.length ? `; held until their quarter: ${held.join(', ')}` : ''
  const [newest] = inEffect
  if (newest) {
    return { request: { feed: 'tx-comptroller', fileName: newest.file.name, officialUrl: newest.file.officialUrl }, edition: newest.edition, pinned: false, how: `${newest.file.name}: the newest of ${dated.length} dated rate file(s) in effect linked from ${page}${heldNote}` }
  }
  if (held.length) throw new Error(`EDI page ${listing.where} links only rate files of quarters not yet begun: ${held.join(', ')}; held until then`)
  const choice = currentFileChoice('tx-comptroller', feed.fileUrl)
  return { ...choice, how: `${choice.how} (the EDI page ${listing.where} links no taxrates file among its ${listing.files.length} links)` }
}

export const txComptrollerAdapter: FeedAdapter<'tx-comptroller'> = oneFileAdapter({
  kind: 'tx-comptroller',
  choose: (feed, context) => chooseTxRateFile(feed, context),
  compile: (context, fetched, rateOn) => {
    const file = parseTxRateFile(textOf(fetched), fetched.name)
    assertInEffect(file.fileName, file.effectiveFrom, context.settings.now)
    return compileTxComptroller({ file, stateRate: rateOn(file.effectiveFrom), geography: context.geography })
  },
  edition: {
    pinnable: (name) => TX_RATE_FILE.test(name),
    isOlder: (candidate, inService) => QUARTER.test(candidate) && QUARTER.test(inService) && candidate < inService,
    role: (name) => (TX_RATE_FILE.test(name) ? 'tx rate file' : null),
  },
})
