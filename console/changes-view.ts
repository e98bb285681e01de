// The changes page's table: one row per rate change, in the feed's order (effective date, then
// state, level and code), with the source file and edition that announced it.
import type { RateChangesResponse } from '../client/index.ts'
import { h, percent, table } from './dom.ts'
import { jurisdictionName } from './jurisdiction-name.ts'

type RateChange = RateChangesResponse['changes'][number]

const rateText = (rate: string | null) => (rate === null ? 'none' : percent(rate))

function sourceCell(source: RateChange['source']): HTMLElement {
  const file = source.url ? h('a', { href: source.url, rel: 'noreferrer' }, source.file) : h('span', {}, source.file)
  return h('span', { 'data-field': 'source' }, file, source.edition ? h('small', { class: 'muted' }, ` edition ${source.edition}`) : null)
}

export function changesTable(changes: readonly RateChange[]): HTMLElement {
  const rows = changes.map((change) => [
    h('span', { 'data-field': 'effective' }, change.effective),
    change.state,
    jurisdictionName(change.jurisdiction, change.source.file),
    h('span', { 'data-field': 'rates' }, `${rateText(change.old_rate)} → ${rateText(change.new_rate)}`),
    change.zip_count.toLocaleString('en-US'),
    sourceCell(change.source),
  ])
  const rowData = changes.map((change) => ({ state: change.state, code: change.jurisdiction.code, level: change.jurisdiction.level }))
  return table('Changes by effective date', ['Effective', 'State', 'Jurisdiction', 'Rate', 'ZIPs', 'Source'], rows, { 'data-part': 'changes' }, rowData)
}
