// South Carolina: SCDOR's Sales & Use Tax Index page (its county table), ST-500 and ST-575, each at
// one address replaced in place (a mirror: the sc-dor folder holds them under these names).
import type { Feed } from '../../../sources/descriptor.ts'
import { CURRENT_EDITION, type EditionChoice } from '../../fetch/edition-choice.ts'
import { CURRENT_FILE_RULES, type FeedAdapter } from '../feed-adapter.ts'
import { factsOf, fetchChoice, rawFile, textOf, withFiles, withUnlistedZips } from '../feed-files.ts'
import { stateRateOn } from '../../../sources/state-facts.ts'
import { compileScRates } from './compile.ts'
import { parseScIndex } from './index-table.ts'
import { parseSt500 } from './st500.ts'
import { parseSt575 } from './st575.ts'

/** The names the three files are kept under: the index page is kept as the page it is. */
export const SC_FILES = { index: 'sales-use-tax-index.html', st500: 'ST500.pdf', st575: 'ST575.pdf' } as const

type ScFeed = Extract<Feed, { kind: 'sc-dor' }>

const choice = (fileName: string, officialUrl: string, what: string): EditionChoice => ({
  request: { feed: 'sc-dor', fileName, officialUrl },
  edition: CURRENT_EDITION,
  pinned: false,
  how: `${fileName}: ${what} at ${officialUrl}`,
})

export const scDorAdapter: FeedAdapter<'sc-dor'> = {
  kind: 'sc-dor',
  choose: async (_descriptor, feed: ScFeed) => [
    choice(SC_FILES.index, feed.indexUrl, 'the Sales & Use Tax Index page, its county table'),
    choice(SC_FILES.st500, feed.st500Url, 'ST-500, local tax designation by county'),
    choice(SC_FILES.st575, feed.st575Url, 'ST-575, sales tax rate by municipality'),
  ],
  fetch: fetchChoice,
  drop: 'supplement',
  compile: async (descriptor, _feed, sources, context) => {
    const [indexFile, st500File, st575File] = sources.fetched
    const index = parseScIndex(textOf(indexFile!), indexFile!.name)
    const st500 = await parseSt500(st500File!.bytes, st500File!.name)
    const st575 = await parseSt575(st575File!.bytes, st575File!.name)
    const result = compileScRates({ index, st500, st575, stateRate: stateRateOn(factsOf(descriptor), st500.effective)!, geography: context.geography })
    return withUnlistedZips(withFiles(result, sources.fetched.map(rawFile)), descriptor.code, sources, context)
  },
  edition: CURRENT_FILE_RULES,
}
