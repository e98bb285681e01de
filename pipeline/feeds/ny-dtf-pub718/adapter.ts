// New York: DTF Publication 718, linked as pub718.pdf from the current local rates page (its name
// never changes; the edition is the "Effective" date inside).
import { listingOrNoFile, CURRENT_EDITION, type ChoiceContext, type EditionChoice } from '../../fetch/edition-choice.ts'
import { CURRENT_FILE_RULES, type FeedAdapter } from '../feed-adapter.ts'
import { assertInEffect, oneFileAdapter } from '../feed-files.ts'
import { compileNyPub718 } from './compile.ts'
import { parsePub718 } from './pub718.ts'

const PUB718 = /^pub718\.pdf$/i

/** The pub718.pdf the local rates page links (on a mirror: its ny-dtf-pub718 folder holds). */
export async function choosePub718(pageUrl: string, context: ChoiceContext): Promise<EditionChoice> {
  const listing = await listingOrNoFile('ny-dtf-pub718', pageUrl, context)
  const pdf = listing.files.find((file) => PUB718.test(file.name))
  if (!pdf) throw new Error(`local rates page ${listing.where} links no pub718.pdf among its ${listing.files.length} links: its layout changed`)
  return { request: { feed: 'ny-dtf-pub718', fileName: pdf.name, officialUrl: pdf.officialUrl }, edition: CURRENT_EDITION, pinned: false, how: `${pdf.name}: Publication 718 as linked from ${listing.where}` }
}

export const nyDtfPub718Adapter: FeedAdapter<'ny-dtf-pub718'> = oneFileAdapter({
  kind: 'ny-dtf-pub718',
  choose: (feed, context) => choosePub718(feed.pageUrl, context),
  compile: async (context, fetched, rateOn) => {
    const pub718 = await parsePub718(fetched.bytes, fetched.name)
    assertInEffect(fetched.name, pub718.effective, context.settings.now)
    return compileNyPub718({ pub718, stateRate: rateOn(pub718.effective), geography: context.geography })
  },
  edition: CURRENT_FILE_RULES,
})
