// The Louisiana Sales and Use Tax Commission for Remote Sellers' rate lookup
// (publisher-evidence-remaining.md §3.2), an ASP.NET page with no file behind it: its drop-downs list
// the 64 parishes (`ddlJurisdiction`, `Acadia Parish (0100)`) and the filing periods
// (`ddlFilingPeriod`, `MM-DD-YYYY`, the selected one current), and each parish's local rates are the
// page's answer to a postback selecting it: table `grdRates`, rows of `Jurisdiction (Domicile Code)`,
// local rate `4.2500%`, vendor compensation, delinquency and interest.
//
// The crawl (1 GET, then a POST per parish, a few at a time) is kept as one JSON document of what
// each answer said, so the edition's bytes have a hash and the compiler reads a file like any feed's.
// An answer that is not the parish asked for (an error page answered 200, another parish echoed) is
// recorded as unread with why, never as rates.
import pLimit from 'p-limit'
import { pageForm, type FormSelect } from '../../fetch/html-form.ts'
import { pageTables } from '../../fetch/html-tables.ts'

export type LaRateRow = { name: string; domicile: string; rate: string }
export type LaParishAnswer = { code: string; name: string; rows: LaRateRow[] | null; problem?: string }
export type LaCrawl = { page: string; period: string; periodLabel: string; parishes: LaParishAnswer[] }

const JURISDICTION = /jurisdiction/i
const PERIOD = /filingperiod/i
const selectNamed = (selects: FormSelect[], pattern: RegExp) => selects.find((s) => pattern.test(s.id ?? '') || pattern.test(s.name ?? ''))

/** The lookup page's parishes, periods and hidden fields; throws when it is not that form. */
export function lookupForm(html: string, where: string) {
  const { hidden, selects } = pageForm(html)
  const parishes = selectNamed(selects, JURISDICTION)
  const periods = selectNamed(selects, PERIOD)
  if (!parishes || !periods || !('__VIEWSTATE' in hidden)) throw new Error(`${where}: not the rate lookup form (no ddlJurisdiction and ddlFilingPeriod drop-downs, or no __VIEWSTATE)`)
  const current = periods.options.find((o) => o.selected) ?? periods.options[0]
  if (!current || !/^\d{2}-\d{2}-\d{4}$/.test(current.value)) throw new Error(`${where}: no filing period selected in MM-DD-YYYY form`)
  return { hidden, parishes, periods, current, selectedParish: parishes.options.find((o) => o.selected)?.value ?? null, selects }
}

/** The rows of `grdRates` on a postback's answer, or why there are none. */
export function rateRows(html: string): { rows: LaRateRow[] } | { problem: string } {
  const table = pageTables(html).find((t) => t.id !== null && /grdRates/i.test(t.id))
  if (!table) return { problem: 'no grdRates table in the answer (an error page?)' }
  const rows: LaRateRow[] = []
  for (const cells of table.rows.slice(1)) {
    if (cells.length === 0 || cells.every((c) => c === '')) continue
    if (cells.length !== 5) return { problem: `a grdRates row of ${cells.length} cells, not 5: ${JSON.stringify(cells)}` }
    const named = /^(.*?)\s*\((\d{4})\)$/.exec(cells[0]!)
    if (!named || !/^\d+(\.\d+)?%$/.test(cells[1]!)) return { problem: `a grdRates row not "Name (NNNN)" with an N% rate: ${JSON.stringify(cells)}` }
    rows.push({ name: named[1]!, domicile: named[2]!, rate: cells[1]! })
  }
  return { rows }
}

/** Every parish's answer for the current period of the lookup page `html`: `post` gives the page's answer to a parish's postback. */
export async function crawlLookup(page: string, html: string, post: (fields: Record<string, string>, parish: { code: string; name: string }) => Promise<string>): Promise<LaCrawl> {
  const form = lookupForm(html, page)
  const limit = pLimit(4)
  const parishes = await Promise.all(
    form.parishes.options.filter((o) => o.value !== '').map((option) =>
      limit(async (): Promise<LaParishAnswer> => {
        const fields: Record<string, string> = { ...form.hidden, __EVENTTARGET: form.parishes.name ?? 'ddlJurisdiction', __EVENTARGUMENT: '' }
        for (const select of form.selects) if (select.name) fields[select.name] = select.options.find((o) => o.selected)?.value ?? select.options[0]?.value ?? ''
        fields[form.parishes.name ?? 'ddlJurisdiction'] = option.value
        fields[form.periods.name ?? 'ddlFilingPeriod'] = form.current.value
        let answer: string
        try {
          answer = await post(fields, { code: option.value, name: option.text })
        } catch (error) {
          return { code: option.value, name: option.text, rows: null, problem: (error as Error).message }
        }
        let echoed: string | null = null
        try {
          echoed = lookupForm(answer, page).selectedParish
        } catch {
          // read below as an answer with no rates
        }
        if (echoed !== option.value) return { code: option.value, name: option.text, rows: null, problem: echoed ? `the answer is for ${echoed}, not ${option.value}` : 'the answer is not the lookup form (an error page answered 200?)' }
        const read = rateRows(answer)
        return 'rows' in read ? { code: option.value, name: option.text, rows: read.rows } : { code: option.value, name: option.text, rows: null, problem: read.problem }
      }),
    ),
  )
  return { page, period: form.current.value, periodLabel: form.current.text, parishes }
}
