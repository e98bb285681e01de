// The changes page's table: one row per rate change, in the feed's order (effective date, then
// state, level and code), with the source file and edition that announced it and, when asked
// (impact), the account's sales of the last 90 days it touches and the tax difference it makes.
import type { RateChangesResponse } from '../client/index.ts'
import { h, percent, table } from './dom.ts'
import { jurisdictionName } from './jurisdiction-name.ts'

type RateChange = RateChangesResponse['changes'][number]

const rateText = (rate: string | null) => (rate === null ? 'none' : percent(rate))

function sourceCell(source: RateChange['source']): HTMLElement {
  const file = source.url ? h('a', { href: source.url, rel: 'noreferrer' }, source.file) : h('span', {}, source.file)
  return h('span', { 'data-field': 'source' }, file, source.edition ? h('small', { class: 'muted' }, ` edition ${source.edition}`) : null)
}

function impactCells(impact: RateChange['impact']): HTMLElement[] {
  if (!impact) return []
  const sales = impact.transactions
    ? h('span', { 'data-field': 'exposure' }, `${impact.gross_sales} in ${impact.transactions.toLocaleString('en-US')} transactions`)
    : h('span', { 'data-field': 'exposure', class: 'muted' }, 'none')
  const unsure = impact.other_candidates.transactions
    ? h('small', { class: 'muted', 'data-field': 'other-candidates' }, ` and ${impact.other_candidates.transactions.toLocaleString('en-US')} placed in another jurisdiction of the same ZIPs`)
    : null
  return [h('span', {}, sales, unsure), h('span', { 'data-field': 'tax-difference' }, impact.tax_difference)]
}

export function changesTable(changes: readonly RateChange[]): HTMLElement {
  const withImpact = changes.some((change) => change.impact)
  const rows = changes.map((change) => [
    h('span', { 'data-field': 'effective' }, change.effective),
    change.state,
    jurisdictionName(change.jurisdiction, change.source.file),
    h('span', { 'data-field': 'rates' }, `${rateText(change.old_rate)} → ${rateText(change.new_rate)}`),
    change.zip_count.toLocaleString('en-US'),
    sourceCell(change.source),
    ...impactCells(change.impact),
  ])
  const rowData = changes.map((change) => ({ state: change.state, code: change.jurisdiction.code, level: change.jurisdiction.level }))
  const headings = ['Effective', 'State', 'Jurisdiction', 'Rate', 'ZIPs', 'Source', ...(withImpact ? ['Your sales there, last 90 days', 'Tax difference on them'] : [])]
  return table('Changes by effective date', headings, rows, { 'data-part': 'changes' }, rowData)
}
