// The returns page's answer: what it rests on (notices), the jurisdiction rows, the totals with the
// exempt sales by why, the transactions no jurisdiction could be given, and which rate data
// answered which days. Amounts are shown as the API sends them (exact decimal strings).
import type { SalesTaxReturnResponse } from '../client/index.ts'
import { facts, h, percent, table } from './dom.ts'

type Row = SalesTaxReturnResponse['rows'][number]

const EXEMPT_LABELS = {
  wholesale: 'wholesale (resale)',
  government: 'government',
  other: 'other exemption',
  marketplace: 'sold through a marketplace',
  shipping: 'shipping not taxed',
  products: 'exempt products',
  local_item_cap: 'above a local per-item cap',
} as const

const money = (value: string, field: string) => h('span', { 'data-field': field, class: 'amount' }, value)

type ExemptSales = SalesTaxReturnResponse['totals']['exempt_sales']
const EXEMPT_KINDS = Object.keys(EXEMPT_LABELS) as (keyof typeof EXEMPT_LABELS & keyof ExemptSales)[]

/** The exempt sales that are not zero, each with why ('none' when all are). */
function exemptParts(exempt: ExemptSales): HTMLElement {
  const parts = EXEMPT_KINDS.filter((kind) => !/^-?0\.0+$/.test(exempt[kind]))
  if (!parts.length) return h('span', { 'data-field': 'exempt', class: 'muted' }, 'none')
  return h('span', { 'data-field': 'exempt' }, ...parts.map((kind, i) => h('span', { 'data-kind': kind }, i ? '; ' : '', `${exempt[kind]} ${EXEMPT_LABELS[kind]}`)))
}

function jurisdictionCell(row: Row): HTMLElement {
  return h('span', {}, row.jurisdiction.name ?? row.jurisdiction.code, h('small', { class: 'muted' }, ` ${row.jurisdiction.level} ${row.jurisdiction.code}`))
}

function filingCell(row: Row): HTMLElement {
  if (!row.filing_code) return h('span', { 'data-field': 'filing', class: 'muted' }, 'not given')
  return h('span', { 'data-field': 'filing' }, row.filing_code.code, h('small', { class: 'muted' }, ` ${row.filing_code.system}`))
}

function rowsTable(rows: readonly Row[]): HTMLElement {
  const cells = rows.map((row) => [
    jurisdictionCell(row),
    filingCell(row),
    h('span', { 'data-field': 'rate' }, percent(row.rate)),
    h('span', { 'data-field': 'transactions' }, row.transactions.toLocaleString('en-US')),
    money(row.gross_sales, 'gross'),
    exemptParts(row.exempt_sales),
    money(row.taxable_sales, 'taxable'),
    money(row.tax_due, 'due'),
    money(row.tax_collected, 'collected'),
    money(row.difference, 'difference'),
    row.default_choice.transactions
      ? h('span', { 'data-field': 'default' }, `${row.default_choice.transactions.toLocaleString('en-US')} (${row.default_choice.gross_sales})`)
      : h('span', { 'data-field': 'default', class: 'muted' }, 'none'),
  ])
  const data = rows.map((row) => ({ level: row.jurisdiction.level, code: row.jurisdiction.code, rate: row.rate }))
  const headings = ['Jurisdiction', 'Filing code', 'Rate', 'Transactions', 'Gross sales', 'Exempt, by why', 'Taxable', 'Tax due', 'Collected', 'Difference', "On a ZIP's default"]
  return table('By jurisdiction: the state first, then counties, cities and districts', headings, cells, { 'data-part': 'return-rows' }, data)
}

function totalsView(totals: SalesTaxReturnResponse['totals']): HTMLElement {
  return h(
    'section',
    { 'data-part': 'return-totals', 'aria-label': 'Totals' },
    h('h2', {}, 'Totals'),
    facts([
      ['Transactions', totals.transactions.toLocaleString('en-US')],
      ['Gross sales', money(totals.gross_sales, 'gross')],
      ['Exempt sales', exemptParts(totals.exempt_sales)],
      ['Taxable sales', money(totals.taxable_sales, 'taxable')],
      ['Tax due', money(totals.tax_due, 'due')],
      ['Tax collected', money(totals.tax_collected, 'collected')],
      ['Difference', money(totals.difference, 'difference')],
    ]),
  )
}

function unassignedView(rows: SalesTaxReturnResponse['unassigned']): HTMLElement | null {
  if (!rows.length) return null
  const cells = rows.map((row) => [h('code', {}, row.reason), row.message, row.transactions.toLocaleString('en-US'), money(row.gross_sales, 'gross'), money(row.tax_collected, 'collected'), h('span', { class: 'url' }, row.zips.join(', '))])
  return h(
    'section',
    { 'aria-label': 'Unassigned' },
    h('h2', {}, 'Not assigned to a jurisdiction'),
    table('Counted in the totals, by reason', ['Reason', 'Why', 'Transactions', 'Gross sales', 'Collected', 'ZIPs'], cells, { 'data-part': 'return-unassigned' }, rows.map((row) => ({ reason: row.reason }))),
  )
}

function sourcesView(sources: SalesTaxReturnResponse['sources']): HTMLElement {
  const KIND = { served: 'the snapshot in service', held_edition: 'an older edition it holds', earlier_snapshot: 'an earlier snapshot', none: 'no rate data held' } as const
  return h(
    'section',
    { 'aria-label': 'Rate data' },
    h('h2', {}, 'Rate data'),
    h(
      'ul',
      { 'data-part': 'return-sources' },
      ...sources.map((source) =>
        h('li', { 'data-data': source.data }, `${source.from} to ${source.to}: ${KIND[source.data]}`, source.snapshot ? ` ${source.snapshot}` : '', source.feed ? `, ${source.feed}${source.edition ? ` edition ${source.edition}` : ''} (${source.source_kind})` : ''),
      ),
    ),
  )
}

export function returnView(ret: SalesTaxReturnResponse): HTMLElement {
  const notices = ret.notices.length ? h('ul', { class: 'alerts', 'data-part': 'return-notices' }, ...ret.notices.map((notice) => h('li', { 'data-code': notice.code }, notice.message))) : null
  return h('div', {}, notices, rowsTable(ret.rows), totalsView(ret.totals), unassignedView(ret.unassigned), sourcesView(ret.sources))
}
