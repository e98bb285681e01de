// Missouri: DOR's sales and use tax rate chart, linked by its period from the per-year rate-tables pages.
import path from 'node:path'
import { parseMoRateChart } from './rate-chart.ts'
import { pageLinks } from '../../fetch/html-links.ts'
import { chartLinks, yearPages } from './links.ts'
import { compileMoRates } from './compile.ts'
import { orNoFileOnMirror, readPage, type ChoiceContext, type EditionChoice } from '../../fetch/edition-choice.ts'
import { isOlderDate, never, type FeedAdapter } from '../feed-adapter.ts'
import { oneFileAdapter } from '../feed-files.ts'

const MO_FEED = 'mo-dor'
/** The year page of the rate-tables landing page, kept (and, on a mirror, served) under this name. */
const moYearPageName = (year: number) => `rate-tables-${year}.html`
const MO_LANDING_PAGE = 'rate-tables.html'

/**
 * Missouri's rate chart: the landing page links a page per year; those of this year and the last
 * link their charts by period (`10/2026 - 12/2026 - XLS`). The chart of the newest period begun is
 * chosen; one whose period begins after today is held until then. On a mirror, the pages are files
 * of the mo-dor folder (`rate-tables.html`, `rate-tables-2026.html`).
 */
export async function chooseMoRateChart(pageUrl: string, context: ChoiceContext): Promise<EditionChoice> {
  const today = context.settings.now.toISOString().slice(0, 10)
  const landing = await orNoFileOnMirror(MO_FEED, context.settings, () => readPage({ feed: MO_FEED, fileName: MO_LANDING_PAGE, officialUrl: pageUrl }, context.settings))
  const years = yearPages(pageLinks(landing), pageUrl).filter((y) => y.year >= Number(today.slice(0, 4)) - 1)
  if (years.length === 0) throw new Error(`rate-tables page ${pageUrl} links no page of this year or the last (…/rate-tables/YYYY/): its layout changed`)
  const charts = []
  for (const { year, url } of years) charts.push(...chartLinks(pageLinks(await readPage({ feed: MO_FEED, fileName: moYearPageName(year), officialUrl: url }, context.settings)), url))
  charts.sort((a, b) => b.from.localeCompare(a.from))
  const held = charts.filter((c) => c.from > today).map((c) => `"${c.text}"`)
  const [newest] = charts.filter((c) => c.from <= today)
  if (!newest) {
    if (held.length) throw new Error(`rate-tables pages of ${years.map((y) => y.year).join(', ')} link only charts of periods not yet begun (${held.join(', ')}); held until then`)
    throw new Error(`rate-tables pages of ${years.map((y) => y.year).join(', ')} link no chart by the text "MM/YYYY - MM/YYYY - XLS": their layout changed`)
  }
  const fileName = decodeURIComponent(path.posix.basename(new URL(newest.href).pathname))
  const how = `${fileName}: "${newest.text}", the newest of ${charts.length} rate chart(s) linked from the rate-tables pages of ${years.map((y) => y.year).join(', ')}${held.length ? `; held until their period: ${held.join(', ')}` : ''}`
  return { request: { feed: MO_FEED, fileName, officialUrl: newest.href }, edition: newest.from, pinned: false, how }
}

export const moDorAdapter: FeedAdapter<'mo-dor'> = oneFileAdapter({
  kind: 'mo-dor',
  choose: (feed, context) => chooseMoRateChart(feed.pageUrl, context),
  compile: async (context, fetched, rateOn, edition) => compileMoRates({ chart: await parseMoRateChart(fetched.bytes, fetched.name), stateRate: rateOn(edition), geography: context.geography, edition }),
  edition: { pinnable: never, isOlder: isOlderDate, role: () => null },
})
