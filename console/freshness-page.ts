// The freshness page (/): the map, its legend, the selected state's details and the table, kept
// up to date by the hourly feed.
import { byId, facts, h } from './dom.ts'
import { FreshnessFeed, type FeedEvent } from './freshness-feed.ts'
import { FreshnessMap } from './freshness-map.ts'
import { classMeaning, scheduleText, sourceOf, STATUS_STYLES, when, type FreshnessRecord, type FreshnessStatus, type RefreshSchedule } from './freshness-status.ts'
import { fillFreshnessTable, statusBadge, swatch } from './freshness-table.ts'
import { problemView } from './problem-view.ts'

const records = new Map<string, FreshnessRecord>()
let generatedAt: string | null = null
let schedule: RefreshSchedule = null
let selected: string | null = null

const statusLine = byId('freshness-status')
const problem = byId('freshness-problem')
const details = byId('state-details')
const map = new FreshnessMap(byId<SVGSVGElement>('freshness-map'), (code) => select(code))

byId('freshness-legend').append(
  ...(Object.entries(STATUS_STYLES) as [FreshnessStatus, (typeof STATUS_STYLES)[FreshnessStatus]][]).map(([status, style]) =>
    h('li', { 'data-status': status, 'data-colour': style.colour, title: style.meaning }, swatch(style.colour), style.label),
  ),
)

function select(code: string): void {
  selected = code
  map.select(code)
  const record = records.get(code)
  if (!record) {
    details.replaceChildren(h('p', {}, `${code.toUpperCase()}: no freshness record yet.`))
    return
  }
  details.replaceChildren(
    h('h2', {}, `${record.name} (${record.code.toUpperCase()})`),
    facts([
      ['Status', h('span', {}, statusBadge(record), ' — ', STATUS_STYLES[record.status].meaning)],
      ['Class', h('span', { 'data-field': 'class' }, classMeaning(record.klass, schedule))],
      ['Source', sourceOf(record)],
      ['Edition', record.edition ?? '—'],
      ['Pending edition', record.pending_edition && `${record.pending_edition.edition} (${record.pending_edition.feed}), not served: ${record.pending_edition.reason}`],
      ['Effective through', record.effective_through ?? '—'],
      ['Last refreshed', when(record.last_refreshed_at)],
      ['Rows', record.rows.toLocaleString('en-US')],
    ]),
  )
}

function show(event: FeedEvent): void {
  const time = when(event.at.toISOString())
  if (event.kind === 'failed') {
    problem.replaceChildren(problemView(event.error))
    statusLine.textContent = generatedAt
      ? `Last check ${time} failed; showing the data of ${when(generatedAt)}.`
      : `Last check ${time} failed; no data yet.`
    return
  }
  problem.replaceChildren()
  if (event.kind === 'updated') {
    records.clear()
    for (const record of event.body.states) records.set(record.code, record)
    generatedAt = event.body.generated_at
    schedule = event.body.refresh_schedule
    map.paint(records)
    fillFreshnessTable(byId<HTMLTableElement>('freshness-table').tBodies[0], event.body.states, schedule)
    if (selected) select(selected)
  }
  const change = event.kind === 'updated' ? 'updated' : 'unchanged'
  statusLine.textContent = `Snapshot of ${when(generatedAt)}: ${records.size} states and territories; ${scheduleText(schedule)}. Checked ${time} (${change}); checked again every hour.`
}

const feed = new FreshnessFeed(show)
byId('freshness-refresh').addEventListener('click', () => void feed.check())
map.draw().then(
  () => feed.start(),
  (error) => {
    problem.replaceChildren(problemView(error))
    feed.start()
  },
)
