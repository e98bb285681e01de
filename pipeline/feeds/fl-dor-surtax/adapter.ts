// Florida: DOR's discretionary sales surtax workbook, the answer of PointMatch's "Download All" postback.
import { fetchByPostback } from '../../fetch/aspnet-postback.ts'
import { compileFlSurtax } from './compile.ts'
import { parseFlSurtaxWorkbook } from './workbook.ts'
import { CURRENT_EDITION, listingOrNoFile, type ChoiceContext, type EditionChoice } from '../../fetch/edition-choice.ts'
import { CURRENT_FILE_RULES, type FeedAdapter } from '../feed-adapter.ts'
import { assertInEffect, fetchChoice, oneFileAdapter } from '../feed-files.ts'

/** The name Florida's surtax workbook is kept under: PointMatch answers it to a postback, under no name of its own. */
export const FL_SURTAX_WORKBOOK = 'DiscretionarySalesSurtaxRates.xlsx'
const FL_DOWNLOAD_ALL = 'Download All'

/**
 * Florida's surtax workbook: at the publisher, PointMatch's "Download All" postback; on a mirror,
 * the workbook its fl-dor-surtax folder lists.
 */
export async function chooseFlSurtaxWorkbook(pageUrl: string, context: ChoiceContext): Promise<EditionChoice> {
  if (context.settings.mirror.kind === 'official') {
    return { request: { feed: 'fl-dor-surtax', fileName: FL_SURTAX_WORKBOOK, officialUrl: pageUrl }, postback: FL_DOWNLOAD_ALL, edition: CURRENT_EDITION, pinned: false, how: `${FL_SURTAX_WORKBOOK}: the "${FL_DOWNLOAD_ALL}" postback of ${pageUrl}` }
  }
  const listing = await listingOrNoFile('fl-dor-surtax', pageUrl, context)
  const workbooks = listing.files.filter((file) => /\.xlsx$/i.test(file.name))
  if (workbooks.length !== 1) throw new Error(`mirror listing ${listing.where} holds ${workbooks.length} workbooks (${workbooks.map((w) => w.name).join(', ') || 'none'}), not one`)
  const [workbook] = workbooks
  return { request: { feed: 'fl-dor-surtax', fileName: workbook!.name, officialUrl: workbook!.officialUrl }, edition: CURRENT_EDITION, pinned: false, how: `${workbook!.name}: the workbook of ${listing.where}` }
}

export const flDorSurtaxAdapter: FeedAdapter<'fl-dor-surtax'> = oneFileAdapter({
  kind: 'fl-dor-surtax',
  choose: (feed, context) => chooseFlSurtaxWorkbook(feed.pageUrl, context),
  fetch: async (choice, settings) => (choice.postback ? { fetched: await fetchByPostback(choice.request, choice.postback, settings), choice } : fetchChoice(choice, settings)),
  compile: async (context, fetched, rateOn) => {
    const workbook = await parseFlSurtaxWorkbook(fetched.bytes, fetched.name)
    assertInEffect(workbook.fileName, workbook.asOf, context.settings.now)
    return compileFlSurtax({ workbook, stateRate: rateOn(workbook.asOf), geography: context.geography })
  },
  edition: CURRENT_FILE_RULES,
})
