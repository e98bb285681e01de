// The links of Colorado DOR's sales tax rates page (docs/data-sources.md#colorado): the DR 1002
// workbook of each half-year is found by the period in its file name,
// `Colorado_Jurisdiction_Codes_Rates_<Jan-June|July-Dec><YYYY>[_<Mon><YY>].xlsx` (publisher-evidence
// E3), or, where the name says none, by the period in its link text ("January to June YYYY", "July
// to December YYYY"). A suffix such as `_Apr26` marks a workbook re-issued in that month, which can
// be linked beside the original: its `reissued` month ranks it. A PDF is not the workbook.
import path from 'node:path'
import type { PageLink } from '../../fetch/html-links.ts'

/** `reissued`: the month (`2026-04`) a re-issued workbook's suffix names; null for an original. */
export type CoWorkbookLink = { href: string; from: string; through: string; text: string; reissued: string | null }

const TEXT_PERIOD = /\b(January\s+(?:to|-|through)\s+June|July\s+(?:to|-|through)\s+December)\s*,?\s+(\d{4})\b/i
const NAME_PERIOD = /^Colorado_Jurisdiction_Codes_Rates_(Jan(?:uary)?-June?|July?-Dec(?:ember)?)[_-]?(\d{4})(?:_([A-Za-z]{3})[a-z]*[_-]?(\d{2}))?\.xlsx?$/i
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']
const PDF = /\.pdf$/i

/** The workbooks a page links by their half-year (from the file name, else the link text), each with its period. */
export function coWorkbookLinks(links: PageLink[], base: string): CoWorkbookLink[] {
  return links.flatMap((link) => {
    if (link.href === '') return []
    const url = new URL(link.href, base)
    if (PDF.test(url.pathname)) return []
    const name = decodeURIComponent(path.posix.basename(url.pathname))
    const byName = NAME_PERIOD.exec(name)
    const byText = byName ? null : TEXT_PERIOD.exec(link.text)
    if (!byName && !byText) return []
    const [half, year] = byName ? [byName[1]!, byName[2]!] : [byText![1]!, byText![2]!]
    const firstHalf = /^jan/i.test(half)
    const month = byName?.[3] ? MONTHS.indexOf(byName[3].toLowerCase()) : -1
    const reissued = month >= 0 ? `20${byName![4]}-${String(month + 1).padStart(2, '0')}` : null
    return [{ href: url.href, from: `${year}-${firstHalf ? '01-01' : '07-01'}`, through: `${year}-${firstHalf ? '06-30' : '12-31'}`, text: link.text, reissued }]
  })
}
