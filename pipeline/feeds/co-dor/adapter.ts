// Colorado: DOR's DR 1002 jurisdiction codes and rates workbook, linked from its rates page by half-year.
import path from 'node:path'
import { pageLinks } from '../../fetch/html-links.ts'
import { coWorkbookLinks } from './links.ts'
import { parseCoRateWorkbook } from './workbook.ts'
import { compileCoRates } from './compile.ts'
import { orNoFileOnMirror, pinsOf, readPage, type ChoiceContext, type EditionChoice } from '../../fetch/edition-choice.ts'
import { isOlderDate, type FeedAdapter } from '../feed-adapter.ts'
import { oneFileAdapter } from '../feed-files.ts'
import { BROWSER_USER_AGENT } from '../../fetch/browser-user-agent.ts'

const CO_FEED = 'co-dor'
/** A DR 1002 workbook as an operator pins it: the file name the rates page links. */
const CO_WORKBOOK = /\.xlsx?$/i
/** The rates page, kept (and, on a mirror, served) under this name. */
const CO_RATES_PAGE_NAME = 'sales-use-tax-rates.html'
/** tax.colorado.gov answers 403 to clients that do not present themselves as a browser (publisher-evidence B, CO row). */
const CO_BROWSER_USER_AGENT = BROWSER_USER_AGENT

/**
 * Colorado's DR 1002 workbook: the rates page links each half-year's, its period in the file name
 * (`…_July-Dec2026.xlsx`) or the link text ("July to December 2026"). The newest period begun is
 * chosen, and of its workbooks the latest re-issue (`…_Jan-June2026_Apr26.xlsx` over
 * `…_Jan-June2026.xlsx`); one beginning after today is held until then; a pin names the linked file
 * to take instead. On a mirror, the page is the file `sales-use-tax-rates.html` of the co-dor folder.
 */
export async function chooseCoRateWorkbook(pageUrl: string, context: ChoiceContext): Promise<EditionChoice> {
  const page = await orNoFileOnMirror(CO_FEED, context.settings, () => readPage({ feed: CO_FEED, fileName: CO_RATES_PAGE_NAME, officialUrl: pageUrl, userAgent: CO_BROWSER_USER_AGENT }, context.settings))
  const links = coWorkbookLinks(pageLinks(page), pageUrl).sort((a, b) => b.from.localeCompare(a.from) || (b.reissued ?? '').localeCompare(a.reissued ?? ''))
  const nameOf = (href: string) => decodeURIComponent(path.posix.basename(new URL(href).pathname))
  const choice = (link: (typeof links)[number], pinned: boolean, how: string): EditionChoice => ({ request: { feed: CO_FEED, fileName: nameOf(link.href), officialUrl: link.href, userAgent: CO_BROWSER_USER_AGENT }, edition: link.from, pinned, how })
  const pin = pinsOf('CO', context.settings).find((name) => CO_WORKBOOK.test(name))
  if (pin) {
    const link = links.find((l) => nameOf(l.href) === pin)
    if (!link) throw new Error(`TAXATLAS_PIN names ${pin} for CO, which the rates page ${pageUrl} does not link (it links ${links.map((l) => nameOf(l.href)).join(', ') || 'no workbook by period'})`)
    return choice(link, true, `${pin}: "${link.text}", pinned by the operator (TAXATLAS_PIN); newer editions are not looked for`)
  }
  const today = context.settings.now.toISOString().slice(0, 10)
  const held = links.filter((l) => l.from > today).map((l) => nameOf(l.href))
  const inEffect = links.filter((l) => l.from <= today)
  const [newest] = inEffect
  if (!newest) {
    if (held.length) throw new Error(`rates page ${pageUrl} links only workbooks of periods not yet begun (${held.join(', ')}); held until then`)
    throw new Error(`rates page ${pageUrl} links no workbook named by its half-year (Colorado_Jurisdiction_Codes_Rates_<Jan-June|July-Dec>YYYY.xlsx) nor by the text "January to June YYYY" or "July to December YYYY": its layout changed`)
  }
  const twins = inEffect.filter((l) => l.from === newest.from && l.href !== newest.href)
  const tied = twins.filter((l) => l.reissued === newest.reissued)
  if (tied.length) throw new Error(`rates page ${pageUrl} links ${tied.length + 1} workbooks for the period beginning ${newest.from} none re-issued later than the others: ${[newest, ...tied].map((l) => nameOf(l.href)).join(', ')}`)
  const beside = twins.length ? `; the latest re-issue of ${twins.length + 1} for its period (${newest.reissued ? `re-issued ${newest.reissued}` : 'the original'}), over ${[...new Set(twins.map((l) => nameOf(l.href)))].join(', ')}` : ''
  return choice(newest, false, `${nameOf(newest.href)}: "${newest.text}", the newest of ${links.length} workbook(s) linked from ${pageUrl}${beside}${held.length ? `; held until their period: ${held.join(', ')}` : ''}`)
}

export const coDorAdapter: FeedAdapter<'co-dor'> = oneFileAdapter({
  kind: 'co-dor',
  choose: (feed, context) => chooseCoRateWorkbook(feed.pageUrl, context),
  compile: async (context, fetched, rateOn, edition) => compileCoRates({ workbook: await parseCoRateWorkbook(fetched.bytes, fetched.name, rateOn(edition)), stateRate: rateOn(edition), geography: context.geography, edition }),
  // any workbook name may be pinned, so no role: it would take other feeds' workbooks for its own
  edition: { pinnable: (name) => CO_WORKBOOK.test(name), isOlder: isOlderDate, role: () => null },
})
