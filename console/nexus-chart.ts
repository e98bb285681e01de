// Nexus health on the account page: each state's rolling 12-month sales as a share of its nearer
// economic-nexus threshold, drawn as bars against the alert band (within `band` of a threshold)
// and the threshold itself, with the same figures in a table and the alerts listed.
import type { NexusHealthResponse } from '../client/index.ts'
import { h, svg, table } from './dom.ts'

type StateHealth = NexusHealthResponse['states'][number]

const SHOWN = 15
const WIDTH = 720
const ROW = 22
const LEFT = 48
const RIGHT = 16
const TOP = 28
const STATUS_COLOURS: Record<StateHealth['status'], string> = {
  under_threshold: '#5c8a5e',
  approaching: '#e0a100',
  exceeded: '#c62828',
  no_threshold: '#9e9e9e',
}

/** The larger of the two shares: how near the state is to whichever threshold is nearer. */
const shareOf = (state: StateHealth) => Math.max(state.threshold_share.dollars ?? 0, state.threshold_share.transactions ?? 0)

/** A share (a fraction of a threshold) as a percentage for display. */
const percentOf = (share: number) => `${Math.round(share * 1000) / 10}%`

export function nexusView(health: NexusHealthResponse): HTMLElement {
  const band = Number(health.band)
  const tracked = health.states.filter((state) => state.status !== 'no_threshold').sort((a, b) => shareOf(b) - shareOf(a) || a.state.localeCompare(b.state))
  const shown = tracked.slice(0, SHOWN)
  const view = h('div', { class: 'nexus' })
  view.append(
    h('p', {}, `Rolling 12 months ${health.window.from} – ${health.window.to}. The alert band is the last ${percentOf(band)} below a threshold.`),
    alertsView(health),
    chart(shown, band),
  )
  if (tracked.length > shown.length) view.append(h('p', { class: 'muted' }, `${tracked.length - shown.length} more states with a threshold are further from it.`))
  view.append(
    table('Each state with a threshold, nearest first', ['State', 'Status', 'Sales (12 months)', 'Dollar threshold', 'Transactions', 'Transaction threshold', 'Share of the nearer threshold'], tracked.map((state) => [
      `${state.name} (${state.state})`,
      state.status,
      `$${state.order_total}`,
      state.dollar_threshold === null ? '—' : `$${state.dollar_threshold}`,
      String(state.transaction_count),
      state.transaction_threshold === null ? '—' : String(state.transaction_threshold),
      percentOf(shareOf(state)),
    ]), { 'data-part': 'nexus-table' }),
  )
  return view
}

function alertsView(health: NexusHealthResponse): HTMLElement {
  const items = [
    ...health.alerts.map((alert) => h('li', { 'data-alert': alert.state }, alert.message)),
    ...health.exceeded_unregistered.map((state) => h('li', { 'data-unregistered': state }, `${state}: a threshold is met, and ${state} is not in your registration list.`)),
  ]
  return items.length ? h('ul', { class: 'alerts', 'data-part': 'alerts' }, ...items) : h('p', { 'data-part': 'alerts' }, 'No state is in the alert band.')
}

function chart(states: StateHealth[], band: number): SVGSVGElement {
  const top = Math.max(1.25, ...states.map(shareOf))
  const x = (share: number) => LEFT + (Math.min(share, top) / top) * (WIDTH - LEFT - RIGHT)
  const height = TOP + states.length * ROW + 8
  const chartBottom = height - 8
  const label = `Share of the nearer threshold for ${states.length} states; the alert band runs from ${percentOf(1 - band)} to 100%.`
  return svg(
    'svg',
    { class: 'nexus-chart', viewBox: `0 0 ${WIDTH} ${height}`, role: 'img', 'aria-label': label, 'data-band': band },
    svg('rect', { class: 'band', x: x(1 - band), y: TOP - 6, width: x(1) - x(1 - band), height: chartBottom - TOP + 6, fill: '#fff3cd', 'data-from': 1 - band, 'data-to': 1 }),
    svg('text', { x: (x(1 - band) + x(1)) / 2, y: 14, 'text-anchor': 'middle', class: 'axis-label' }, 'alert band'),
    svg('line', { class: 'threshold', x1: x(1), x2: x(1), y1: TOP - 6, y2: chartBottom, stroke: '#c62828', 'stroke-width': 2 }),
    svg('text', { x: x(1) + 4, y: 14, class: 'axis-label' }, 'threshold'),
    ...states.flatMap((state, i) => {
      const y = TOP + i * ROW
      const share = shareOf(state)
      return [
        svg('text', { x: LEFT - 6, y: y + 14, 'text-anchor': 'end', class: 'bar-label' }, state.state),
        svg('rect', { class: 'bar', x: LEFT, y: y + 3, width: Math.max(1, x(share) - LEFT), height: ROW - 8, fill: STATUS_COLOURS[state.status], 'data-state': state.state, 'data-status': state.status, 'data-share': share }),
        svg('text', { x: Math.min(x(share) + 4, WIDTH - RIGHT - 40), y: y + 14, class: 'bar-value' }, percentOf(share)),
      ]
    }),
  )
}
