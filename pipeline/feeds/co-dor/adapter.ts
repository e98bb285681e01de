// Colorado: DOR's DR 1002 jurisdiction codes and rates workbook, linked from its rates page by half-year.
import path from 'node:path'
import { pageLinks } from '../../fetch/html-links.ts'
import { coWorkbookLinks } from './links.ts'
import { parseCoRateWorkbook } from './workbook.ts'
import { compileCoRates } from './compile.ts'
import { orNoFileOnMirror, pinsOf, readPage, type ChoiceContext, type EditionChoice } from '../../fetch/edition-choice.ts'
import { isOlderDate, type FeedAdapter } from '../feed-adapter.ts'
import { oneFileAdapter } from '../feed-files.ts'

const CO_FEED = 'co-dor'
/** A DR 1002 workbook as an operator pins it: the file name the rates page links. */
const CO_WORKBOOK = /\.xlsx?$/i
/** The rates page, kept (and, on a mirror, served) under this name. */
const CO_RATES_PAGE_NAME = 'sales-use-tax-rates.html'
/** tax.colorado.gov answers 403 to clients that do not present themselves as a browser (publisher-evidence B, CO row). */
const CO_BROWSER_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'

/**
 * Colorado's DR 1002 workbook: the rates page links each half-year's by the text "January to June
 * YYYY" / "July to December YYYY". The newest period begun is chosen; one beginning after today is
 * held until then; a pin names the linked file to take instead. On a mirror, the page is the file
 * `sales-use-tax-rates.html` of the co-dor folder.
 */
export async function chooseCoRateWorkbook(pageUrl: string, context: ChoiceContext): Promise<EditionChoice> {
  const page = await orNoFileOnMirror(CO_FEED, context.settings, () => readPage({ feed: CO_FEED, fileName: CO_RATES_PAGE_NAME, officialUrl: pageUrl, userAgent: CO_BROWSER_USER_AGENT }, context.settings))
  const links = coWorkbookLinks(pageLinks(page), pageUrl).sort((a, b) => b.from.localeCompare(a.from))
  const nameOf = (href: string) => decodeURIComponent(path.posix.basename(new URL(href).pathname))
  const choice = (link: (typeof links)[number], pinned: boolean, how: string): EditionChoice => ({ request: { feed: CO_FEED, fileName: nameOf(link.href), officialUrl: link.href, userAgent: CO_BROWSER_USER_AGENT }, edition: link.from, pinned, how })
  const pin = pinsOf('CO', context.settings).find((name) => CO_WORKBOOK.test(name))
  if (pin) {
    const link = links.find((l) => nameOf(l.href) === pin)
    if (!link) throw new Error(`TAXATLAS_PIN names ${pin} for CO, which the rates page ${pageUrl} does not link (it links ${links.map((l) => nameOf(l.href)).join(', ') || 'no workbook by period'})`)
    return choice(link, true, `${pin}: "${link.text}", pinned by the operator (TAXATLAS_PIN); newer editions are not looked for`)
  }
  const today = context.settings.now.toISOString().slice(0, 10)
  const held = links.filter((l) => l.from > today).map((l) => `"${l.text}"`)
  const inEffect = links.filter((l) => l.from <= today)
  const [newest] = inEffect
  if (!newest) {
    if (held.length) throw new Error(`rates page ${pageUrl} links only workbooks of periods not yet begun (${held.join(', ')}); held until then`)
    throw new Error(`rates page ${pageUrl} links no workbook by the text "January to June YYYY" or "July to December YYYY": its layout changed`)
  }
  const twins = [...new Set(inEffect.filter((l) => l.from === newest.from).map((l) => l.href))]
  if (twins.length > 1) throw new Error(`rates page ${pageUrl} links ${twins.length} workbooks for the period beginning ${newest.from}: ${twins.map(nameOf).join(', ')}`)
  return choice(newest, false, `${nameOf(newest.href)}: "${newest.text}", the newest of ${links.length} workbook(s) linked from ${pageUrl}${held.length ? `; held until their period: ${held.join(', ')}` : ''}`)
}

export const coDorAdapter: FeedAdapter<'co-dor'> = oneFileAdapter({
  kind: 'co-dor',
  choose: (feed, context) => chooseCoRateWorkbook(feed.pageUrl, context),
  compile: async (context, fetched, rateOn, edition) => compileCoRates({ workbook: await parseCoRateWorkbook(fetched.bytes, fetched.name), stateRate: rateOn(edition), geography: context.geography, edition }),
  // any workbook name may be pinned, so no role: it would take other feeds' workbooks for its own
  edition: { pinnable: (name) => CO_WORKBOOK.test(name), isOlder: isOlderDate, role: () => null },
})
