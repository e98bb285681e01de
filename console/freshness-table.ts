// The freshness page's table: every state and territory with the same facts the map shows, for
// screen readers and for territories the map has no place for.
import { h, svg } from './dom.ts'
import { classMeaning, sourceOf, STATUS_STYLES, when, type FreshnessRecord, type RefreshSchedule } from './freshness-status.ts'

export function fillFreshnessTable(body: HTMLTableSectionElement, records: readonly FreshnessRecord[], schedule: RefreshSchedule): void {
  body.replaceChildren(
    ...records.map((record) =>
      h(
        'tr',
        { 'data-state': record.code, 'data-status': record.status },
        h('th', { scope: 'row' }, `${record.name} (${record.code.toUpperCase()})`),
        h('td', {}, statusBadge(record)),
        h('td', { title: classMeaning(record.klass, schedule) }, record.klass),
        h('td', {}, sourceOf(record)),
        h('td', {}, record.edition ?? '—'),
        h('td', {}, record.effective_through ?? '—'),
        h('td', {}, when(record.last_refreshed_at)),
        h('td', { class: 'number' }, record.rows.toLocaleString('en-US')),
      ),
    ),
  )
}

/** The status with its colour swatch and meaning. */
export function statusBadge(record: FreshnessRecord): HTMLElement {
  const style = STATUS_STYLES[record.status]
  return h('span', { class: 'badge', title: style.meaning }, swatch(style.colour), style.label)
}

/** A small square of a colour, drawn (so no style attribute is needed). */
export const swatch = (colour: string) => svg('svg', { class: 'swatch', width: 12, height: 12, 'aria-hidden': 'true' }, svg('rect', { width: 12, height: 12, fill: colour }))
