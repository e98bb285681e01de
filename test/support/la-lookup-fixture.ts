// The Louisiana Remote Sellers Commission's rate lookup as its documented shape has it
// (publisher-evidence-remaining.md §3.2): an ASP.NET form with hidden __VIEWSTATE,
// __VIEWSTATEGENERATOR and __EVENTVALIDATION, drop-downs ddlStateSelect, ddlAuthority, ddlReturn,
// ddlJurisdiction (one option per parish, `Acadia Parish (0100)`) and ddlFilingPeriod (`MM-DD-YYYY`,
// `Sep-2026`, the current one selected, the next listed too), and table grdRates of five cells per
// row. The rates are the evidence's pins (§3.5: Eunice's 0108 at 8.25% combined in Acadia and 7.45%
// in St. Landry; the French Quarter's 3601 two rows, 0.245% and 5%); every other parish-wide rate is
// the fixture's 4%, Acadia's 3%, St. Landry's 2% and Orleans' 5% (TaxAP's synthetic values are not used).
import type { PublisherReplica } from './publisher-replica.ts'

export type LaParish = { code: string; name: string }
export type LaFixtureRow = { name: string; domicile: string; rate: string }

/** The 64 parishes in the drop-down's order: alphabetical by name (Jefferson before Jefferson Davis), numbered 01…64, which is county FIPS 2n − 1. */
export const laParishes = (counties: { fips: string; name: string }[]): LaParish[] =>
  [...counties].sort((a, b) => a.fips.localeCompare(b.fips)).map(({ name }, i) => ({ code: `${String(i + 1).padStart(2, '0')}00`, name: /parish$/i.test(name) ? name : `${name} Parish` }))

const BASE: Record<string, string> = { Acadia: '3.0000%', 'St. Landry': '2.0000%', Orleans: '5.0000%' }

/** The rows grdRates holds for a parish. */
export function laRows(parish: LaParish): LaFixtureRow[] {
  const name = parish.name.replace(/ Parish$/, '')
  const rows: LaFixtureRow[] = [{ name: parish.name, domicile: parish.code, rate: BASE[name] ?? '4.0000%' }]
  if (name === 'Acadia') rows.push({ name: 'City of Eunice', domicile: '0108', rate: '3.2500%' })
  if (name === 'St. Landry') rows.push({ name: 'City of Eunice', domicile: '0108', rate: '2.4500%' })
  if (name === 'Orleans') rows.push({ name: 'French Quarter EDD', domicile: '3601', rate: '0.2450%' }, { name: 'French Quarter EDD', domicile: '3601', rate: '5.0000%' })
  return rows
}

const option = (value: string, text: string, selected: boolean) => `<option${selected ? ' selected="selected"' : ''} value="${value}">${text}</option>`

export type LaPageOptions = { parishes: LaParish[]; selected: string; rows: LaFixtureRow[] | null; periods?: [string, string][] }

/** The lookup page with `selected` chosen in its parish drop-down and its rows in grdRates (null: no table). */
export function laLookupPage({ parishes, selected, rows, periods = [['09-01-2026', 'Sep-2026'], ['10-01-2026', 'Oct-2026']] }: LaPageOptions): string {
  const table = rows
    ? `<table id="grdRates" cellspacing="0" rules="all" border="1"><tr><th scope="col">Jurisdiction (Domicile Code)</th><th scope="col">Tax Rate</th><th scope="col">Vendor Compensation</th><th scope="col">Delinquency Rate</th><th scope="col">Interest Rate</th></tr>${rows
        .map((row) => `<tr><td>${row.name} (${row.domicile})</td><td>${row.rate}</td><td>0.0000%</td><td>5.0000%</td><td>1.0000%</td></tr>`)
        .join('')}</table>`
    : ''
  return `<!DOCTYPE html>
<html><head><title>Rate Lookup</title></head><body>
<form method="post" action="./lookup.aspx" id="form1">
<input type="hidden" name="__VIEWSTATE" id="__VIEWSTATE" value="/wEPDwUKLTE2&amp;x" />
<input type="hidden" name="__VIEWSTATEGENERATOR" id="__VIEWSTATEGENERATOR" value="4B3C1A2F" />
<input type="hidden" name="__EVENTVALIDATION" id="__EVENTVALIDATION" value="/wEdAEJ" />
<select name="ddlStateSelect" id="ddlStateSelect">${option('LA', 'Louisiana', true)}</select>
<select name="ddlAuthority" id="ddlAuthority">${option('1000', 'Remote Sellers Commission', true)}</select>
<select name="ddlReturn" id="ddlReturn">${option('1000', 'Sales and Use Tax', true)}</select>
<select name="ddlJurisdiction" onchange="javascript:setTimeout('__doPostBack(\\'ddlJurisdiction\\',\\'\\')', 0)" id="ddlJurisdiction">${parishes.map((p) => option(p.code, `${p.name} (${p.code})`, p.code === selected)).join('')}</select>
<select name="ddlFilingPeriod" id="ddlFilingPeriod">${periods.map(([value, text], i) => option(value, text, i === 0)).join('')}</select>
${table}
</form></body></html>
`
}

export type LaServeOptions = {
  /** parishes left out of the drop-down */
  leaveOut?: string[]
  /** parishes whose postback answers an error page with 200 */
  errorPage?: string[]
}

/** The lookup at `url` on a replica: the first parish's page to a GET, each parish's to its postback (checking its hidden fields come back). */
export function serveLaLookup(replica: PublisherReplica, url: string, all: LaParish[], options: LaServeOptions = {}): void {
  const parishes = all.filter((p) => !options.leaveOut?.includes(p.name))
  const page = (code: string) => laLookupPage({ parishes, selected: code, rows: laRows(parishes.find((p) => p.code === code)!) })
  replica.answer(url, {
    kind: 'form',
    answer: (method, form) => {
      if (method !== 'POST') return { html: page(parishes[0]!.code) }
      const code = form.get('ddlJurisdiction') ?? ''
      const parish = parishes.find((p) => p.code === code)
      if (!parish || form.get('__VIEWSTATE') !== '/wEPDwUKLTE2&x' || form.get('__EVENTTARGET') !== 'ddlJurisdiction' || form.get('ddlFilingPeriod') !== '09-01-2026') return { html: page(parishes[0]!.code) }
      if (options.errorPage?.includes(parish.name)) return { html: '<!DOCTYPE html><html><head><title>Runtime Error</title></head><body><h1>Server Error in \'/lookup\' Application.</h1></body></html>' }
      return { html: page(code) }
    },
  })
}
