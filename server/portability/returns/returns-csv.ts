// The return as a CSV file (RFC 4180, CRLF, a header line): the same rows as the JSON answer, then
// one line per unassigned reason and a total line, each line naming the state and the period so the
// file stands on its own in a spreadsheet. Text that a spreadsheet would read as a formula (a
// name starting with =, +, - or @) is prefixed with an apostrophe; amounts are plain decimals.
import type { ReturnsBody } from './returns-body.ts'
import { EXEMPT_KINDS } from './taxable-bases.ts'

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8'

const HEADER = [
  'state', 'period_from', 'period_to', 'row', 'level', 'code', 'name', 'filing_code', 'filing_code_system', 'rate',
  'transactions', 'gross_sales', ...EXEMPT_KINDS.map((kind) => `exempt_${kind}`), 'taxable_sales', 'tax_due', 'tax_collected', 'difference',
  'default_choice_transactions', 'default_choice_gross_sales',
]

type Cell = string | number | null

const FORMULA_START = /^[=+\-@\t\r]/

function text(value: Cell): string {
  if (value === null) return ''
  const plain = typeof value === 'number' ? String(value) : value
  return FORMULA_START.test(plain) ? `'${plain}` : plain
}

function field(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value
}

export function returnsCsv(body: ReturnsBody): string {
  const lead = [body.state, body.period.from, body.period.to]
  const lines: string[][] = [HEADER]
  for (const row of body.rows) {
    lines.push([
      ...lead, 'jurisdiction', row.jurisdiction.level, text(row.jurisdiction.code), text(row.jurisdiction.name), text(row.filing_code?.code ?? null), text(row.filing_code?.system ?? null), row.rate,
      String(row.transactions), row.gross_sales, ...EXEMPT_KINDS.map((kind) => row.exempt_sales[kind]), row.taxable_sales, row.tax_due, row.tax_collected, row.difference,
      String(row.default_choice.transactions), row.default_choice.gross_sales,
    ])
  }
  for (const row of body.unassigned) {
    lines.push([...lead, 'unassigned', '', row.reason, text(row.message), '', '', '', String(row.transactions), row.gross_sales, ...EXEMPT_KINDS.map(() => ''), '', '', row.tax_collected, '', '', ''])
  }
  const t = body.totals
  lines.push([...lead, 'total', '', '', '', '', '', '', String(t.transactions), t.gross_sales, ...EXEMPT_KINDS.map((kind) => t.exempt_sales[kind]), t.taxable_sales, t.tax_due, t.tax_collected, t.difference, '', ''])
  return lines.map((cells) => cells.map(field).join(',')).join('\r\n') + '\r\n'
}

/** The file name a download is offered under. */
export const returnsFileName = (body: Pick<ReturnsBody, 'state' | 'period'>) => `taxatlas-return-${body.state}-${body.period.from}-${body.period.to}.csv`
