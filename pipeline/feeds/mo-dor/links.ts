// The links of Missouri DOR's rate-tables pages (docs/data-sources.md#missouri): the landing page
// links a page per year (`…/rate-tables/2026/`), and each year's page links its rate charts by the
// period they cover, `MM/YYYY - MM/YYYY - XLS` (PDF copies are linked beside them). File names are
// not relied on: the period is read from the link text.
import type { PageLink } from '../../fetch/html-links.ts'

export type MoChartLink = { href: string; from: string; through: string; text: string }

const PERIOD_XLS = /^(\d{2})\/(\d{4})\s*-\s*(\d{2})\/(\d{4})\s*-\s*XLSX?$/i
const YEAR_PAGE = /\/rate-tables\/(\d{4})\/?$/

/** The years whose pages the landing page links, newest first. */
export function yearPages(links: PageLink[], base: string): { year: number; url: string }[] {
  const years = new Map<number, string>()
  for (const link of links) {
    const url = new URL(link.href, base)
    const match = YEAR_PAGE.exec(url.pathname)
    if (match) years.set(Number(match[1]), url.href)
  }
  return [...years].map(([year, url]) => ({ year, url })).sort((a, b) => b.year - a.year)
}

/** The XLS rate charts a year's page links, each with the first and last day of its period. */
export function chartLinks(links: PageLink[], base: string): MoChartLink[] {
  return links.flatMap((link) => {
    const match = PERIOD_XLS.exec(link.text)
    if (!match) return []
    const [, fromMonth, fromYear, toMonth, toYear] = match.map(Number) as number[]
    const through = new Date(Date.UTC(toYear!, toMonth!, 0)).toISOString().slice(0, 10)
    return [{ href: new URL(link.href, base).href, from: `${fromYear}-${String(fromMonth).padStart(2, '0')}-01`, through, text: link.text }]
  })
}
