// Louisiana: the Remote Sellers Commission's rate lookup, crawled parish by parish (1 GET and a
// postback per parish); the crawl is kept as one JSON document, the edition's file. On a mirror the
// la-remote-sellers folder holds the page as `lookup.aspx` and each parish's answer as
// `lookup-<code>.html`.
import { sha256Hex } from '../../../snapshot-contract/file-bytes.ts'
import { postForm } from '../../fetch/aspnet-postback.ts'
import { CURRENT_EDITION, orNoFileOnMirror, readPage } from '../../fetch/edition-choice.ts'
import { FetchError, type FetchedSource } from '../../fetch/fetch-source.ts'
import { CURRENT_FILE_RULES, type FeedAdapter } from '../feed-adapter.ts'
import { assertInEffect, factsOf, rawFile, textOf, withFiles, withUnlistedZips } from '../feed-files.ts'
import { stateRateOn } from '../../../sources/state-facts.ts'
import { compileLaLookup } from './compile.ts'
import { crawlLookup, type LaCrawl } from './lookup.ts'

const FEED = 'la-remote-sellers'
const PAGE_FILE = 'lookup.aspx'
const crawlName = (period: string) => `la-remote-sellers-${period}.json`
/** The intermediate remotesellersfiling.la.gov leaves out of its chain (TAP-la, confirmed 2026-09-15). */
const MISSING_INTERMEDIATE = 'Go Daddy Secure Certificate Authority - G2'

export const laRemoteSellersAdapter: FeedAdapter<'la-remote-sellers'> = {
  kind: 'la-remote-sellers',
  choose: async (_descriptor, feed) => [{ request: { feed: FEED, fileName: PAGE_FILE, officialUrl: feed.pageUrl }, edition: CURRENT_EDITION, pinned: false, how: `the parish-by-parish postbacks of ${feed.pageUrl}` }],
  fetch: async (choice, settings) => {
    const page = choice.request.officialUrl
    const official = settings.mirror.kind === 'official'
    const html = await orNoFileOnMirror(FEED, settings, () => readPage(choice.request, settings)).catch((error: Error) => {
      if (/UNABLE_TO_VERIFY_LEAF_SIGNATURE|unable to verify the first certificate/i.test(error.message)) {
        throw new FetchError(`${error.message}. ${new URL(page).host} is known to serve its certificate without the "${MISSING_INTERMEDIATE}" intermediate: add that certificate (PEM, from GoDaddy's repository) to the file NODE_EXTRA_CA_CERTS names; never turn verification off`)
      }
      throw error
    })
    const post = official
      ? async (fields: Record<string, string>, parish: { name: string }) => (await postForm(page, fields, settings, parish.name)).toString('utf8')
      : async (_fields: Record<string, string>, parish: { code: string }) => readPage({ feed: FEED, fileName: `lookup-${parish.code}.html`, officialUrl: page }, settings)
    const crawl: LaCrawl = await crawlLookup(page, html, post)
    const bytes = Buffer.from(`${JSON.stringify(crawl, null, 1)}\n`)
    const fetched: FetchedSource = { url: page, name: crawlName(crawl.period), sha256: sha256Hex(bytes), size: bytes.length, bytes, cache: 'fresh' }
    return { fetched, choice: { ...choice, edition: crawl.period, how: `${fetched.name}: ${choice.how}, filing period ${crawl.periodLabel}` } }
  },
  drop: 'supplement',
  compile: async (descriptor, _feed, sources, context) => {
    const fetched = sources.fetched[0]!
    const crawl = JSON.parse(textOf(fetched)) as LaCrawl
    const [month, day, year] = crawl.period.split('-')
    const effective = `${year}-${month}-${day}`
    assertInEffect(fetched.name, effective, context.settings.now)
    const result = compileLaLookup({ crawl, fileName: fetched.name, stateRate: stateRateOn(factsOf(descriptor), effective)!, geography: context.geography, effective })
    return withUnlistedZips(withFiles(result, [rawFile(fetched)]), descriptor.code, sources, context)
  },
  edition: CURRENT_FILE_RULES,
}
