// Per-state differences between two rates indexes: ZIPs added, removed and re-rated, with the
// old and new combined rates of each ZIP's default answer. The comparison runs in DuckDB.
import { DuckDBConnection } from '@duckdb/node-api'
import { formatRate } from '../../snapshot-contract/rate-units.ts'
import type { RateIndex } from '../../snapshot-contract/rate-index.ts'

export type ZipRate = { state: string; zip: string; combined: number }

export type ZipChange = {
  state: string
  zip: string
  change: 'added' | 'removed' | 'rerated'
  before: string | null
  after: string | null
}

export type StateChangeSummary = { state: string; added: number; removed: number; rerated: number }

/** The combined rate of each (state, ZIP)'s default candidate on a date. */
export function defaultZipRates(index: RateIndex, isoDate: string, states?: ReadonlySet<string>): ZipRate[] {
  const rates: ZipRate[] = []
  for (const state of states ?? index.states) {
    for (const i of index.entriesOfState(state)) {
      const entry = index.entryAt(i)
      const candidate = entry.candidates[0]
      if (candidate) rates.push({ state, zip: entry.zip, combined: index.combinedRate(candidate.stack, isoDate) })
    }
  }
  return rates
}

export async function diffZipRates(connection: DuckDBConnection, before: ZipRate[], after: ZipRate[]): Promise<ZipChange[]> {
  await connection.run('CREATE OR REPLACE TEMP TABLE rates_before (state VARCHAR, zip VARCHAR, combined INTEGER)')
  await connection.run('CREATE OR REPLACE TEMP TABLE rates_after (state VARCHAR, zip VARCHAR, combined INTEGER)')
  await appendRates(connection, 'rates_before', before)
  await appendRates(connection, 'rates_after', after)
  const reader = await connection.runAndReadAll(`
    SELECT coalesce(a.state, b.state) AS state,
           coalesce(a.zip, b.zip) AS zip,
           CASE WHEN b.zip IS NULL THEN 'added' WHEN a.zip IS NULL THEN 'removed' ELSE 'rerated' END AS change,
           b.combined AS before,
           a.combined AS after
    FROM rates_after a
    FULL OUTER JOIN rates_before b ON a.state = b.state AND a.zip = b.zip
    WHERE a.zip IS NULL OR b.zip IS NULL OR a.combined <> b.combined
    ORDER BY state, zip`)
  return reader.getRowObjects().map((row) => ({
    state: String(row.state),
    zip: String(row.zip),
    change: row.change as ZipChange['change'],
    before: row.before === null ? null : formatRate(Number(row.before)),
    after: row.after === null ? null : formatRate(Number(row.after)),
  }))
}

async function appendRates(connection: DuckDBConnection, table: string, rates: ZipRate[]) {
  const appender = await connection.createAppender(table)
  for (const rate of rates) {
    appender.appendVarchar(rate.state)
    appender.appendVarchar(rate.zip)
    appender.appendInteger(rate.combined)
    appender.endRow()
  }
  appender.closeSync()
}

export function summarizeChanges(changes: ZipChange[], states: string[]): StateChangeSummary[] {
  return states.map((state) => {
    const own = changes.filter((change) => change.state === state)
    const count = (kind: ZipChange['change']) => own.filter((change) => change.change === kind).length
    return { state, added: count('added'), removed: count('removed'), rerated: count('rerated') }
  })
}

export function changesToCsv(changes: ZipChange[]): string {
  const lines = ['state,zip,change,before,after']
  for (const c of changes) lines.push([c.state, c.zip, c.change, c.before ?? '', c.after ?? ''].join(','))
  return `${lines.join('\n')}\n`
}

/** A fixed-width text table. */
export function formatTable(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((row) => row.map(String))]
  const widths = header.map((_, i) => Math.max(...cells.map((row) => row[i].length)))
  const line = (row: string[]) => row.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd()
  return [line(cells[0]), line(widths.map((w) => '-'.repeat(w))), ...cells.slice(1).map(line)].join('\n')
}
