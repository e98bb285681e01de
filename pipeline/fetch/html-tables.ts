// The tables of a publisher's HTML page, read by an HTML parser (htmlparser2): each `<table>` with
// its id and its rows of cell texts (`<th>` and `<td>` alike, tags dropped, entities decoded, white
// space collapsed), in page order. A table inside a cell is read as a table of its own.
import { Parser } from 'htmlparser2'

export type HtmlTable = { id: string | null; rows: string[][] }

export function pageTables(html: string): HtmlTable[] {
  const tables: HtmlTable[] = []
  const open: { id: string | null; rows: string[][]; row: string[] | null; cell: string | null }[] = []
  const current = () => open.at(-1)
  const closeCell = () => {
    const table = current()
    if (table?.cell != null && table.row) table.row.push(table.cell.replace(/\s+/g, ' ').trim())
    if (table) table.cell = null
  }
  const closeRow = () => {
    closeCell()
    const table = current()
    if (table?.row) table.rows.push(table.row)
    if (table) table.row = null
  }
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'table') open.push({ id: attributes.id ?? null, rows: [], row: null, cell: null })
        const table = current()
        if (!table) return
        if (name === 'tr') {
          closeRow()
          table.row = []
        } else if (name === 'td' || name === 'th') {
          closeCell()
          table.row ??= []
          table.cell = ''
        } else if (name === 'br' && table.cell !== null) table.cell += ' '
      },
      ontext(text) {
        const table = current()
        if (table && table.cell !== null) table.cell += text
      },
      onclosetag(name) {
        if (name === 'td' || name === 'th') closeCell()
        else if (name === 'tr') closeRow()
        else if (name === 'table') {
          closeRow()
          const { id, rows } = open.pop()!
          tables.push({ id, rows })
        }
      },
    },
    { decodeEntities: true },
  )
  parser.end(html)
  while (open.length) {
    closeRow()
    const { id, rows } = open.pop()!
    tables.push({ id, rows })
  }
  return tables
}
