// The links of Colorado DOR's sales tax rates page (docs/data-sources.md#colorado): the DR 1002
// workbook of each half-year is linked by the period it covers, "January to June YYYY" or "July to
// December YYYY", somewhere in its link text. File names are not relied on (they change from edition
// to edition); a PDF linked by the same text is not the workbook.
import type { PageLink } from '../../fetch/html-links.ts'

export type CoWorkbookLink = { href: string; from: string; through: string; text: string }

const PERIOD = /\b(January\s+(?:to|-|through)\s+June|July\s+(?:to|-|through)\s+December)\s*,?\s+(\d{4})\b/i
const PDF = /\.pdf$/i

/** The workbooks a page links by their half-year, each with the first and last day of its period. */
export function coWorkbookLinks(links: PageLink[], base: string): CoWorkbookLink[] {
  return links.flatMap((link) => {
    const match = PERIOD.exec(link.text)
    if (!match || link.href === '') return []
    const url = new URL(link.href, base)
    if (PDF.test(url.pathname)) return []
    const year = match[2]!
    const firstHalf = /^january/i.test(match[1]!)
    return [{ href: url.href, from: `${year}-${firstHalf ? '01-01' : '07-01'}`, through: `${year}-${firstHalf ? '06-30' : '12-31'}`, text: link.text }]
  })
}
