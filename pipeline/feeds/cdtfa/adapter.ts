// California: CDTFA's rate workbook SalesTaxRates<M>-<D>-<YY>.xlsx, linked from its rates page.
import { RULES_TABLE_AS_OF } from '../../../sources/state-facts.ts'
import { cdtfaEditionDate, compileCdtfa, parseCdtfaWorkbook } from './workbook.ts'
import { pinnedChoice, pinsOf, type ChoiceContext, type EditionChoice } from '../../fetch/edition-choice.ts'
import { isOlderDate, type FeedAdapter } from '../feed-adapter.ts'
import { oneFileAdapter } from '../feed-files.ts'

const CDTFA_WORKBOOK = /^SalesTaxRates\d{1,2}-\d{1,2}-\d{2}\.xlsx$/i

/** The newest SalesTaxRates<M>-<D>-<YY>.xlsx the CDTFA rates page links, or the pinned one. */
export async function chooseCdtfaWorkbook(pageUrl: string, context: ChoiceContext): Promise<EditionChoice> {
  const pinned = pinsOf('CA', context.settings).find((name) => CDTFA_WORKBOOK.test(name))
  if (pinned) return pinnedChoice('cdtfa', pinned, pageUrl, cdtfaEditionDate(pinned))
  const listing = await context.listings.get('cdtfa', pageUrl)
  const workbooks = listing.files
    .filter((file) => CDTFA_WORKBOOK.test(file.name))
    .map((file) => ({ file, edition: cdtfaEditionDate(file.name) }))
    .sort((a, b) => b.edition.localeCompare(a.edition))
  const [newest, next] = workbooks
  if (!newest) {
    throw new Error(`rates page ${listing.where} links no SalesTaxRates<M>-<D>-<YY>.xlsx workbook among its ${listing.files.length} links: its layout changed`)
  }
  if (next && next.edition === newest.edition) {
    throw new Error(`rates page ${listing.where} links two workbooks of edition ${newest.edition}: ${newest.file.name} and ${next.file.name}`)
  }
  const how = `${newest.file.name}: the newest of ${workbooks.length} workbook(s) linked from ${listing.where}${listing.cache === 'not-modified' ? ' (page not modified)' : ''}`
  return { request: { feed: 'cdtfa', fileName: newest.file.name, officialUrl: newest.file.officialUrl }, edition: newest.edition, pinned: false, how }
}

export const cdtfaAdapter: FeedAdapter<'cdtfa'> = oneFileAdapter({
  kind: 'cdtfa',
  choose: (feed, context) => chooseCdtfaWorkbook(feed.pageUrl, context),
  compile: async (context, fetched, rateOn) =>
    compileCdtfa({ workbook: await parseCdtfaWorkbook(fetched.bytes, fetched.name), fileName: fetched.name, statewideRate: rateOn(RULES_TABLE_AS_OF), geography: context.geography }),
  edition: {
    pinnable: (name) => CDTFA_WORKBOOK.test(name),
    isOlder: isOlderDate,
    role: (name) => (CDTFA_WORKBOOK.test(name) ? 'cdtfa workbook' : null),
  },
})
