// Progress for a refresh run on stderr: one line per state as it finishes, a live bar when stderr
// is a terminal, and a summary table at the end that says why any state is `stale`.
import cliProgress from 'cli-progress'
import type { StateRecord } from '../../snapshot-contract/manifest.ts'
import { FEED_ADAPTERS } from '../feeds/adapter-table.ts'
import { sstFileRole } from '../feeds/sst/adapter.ts'
import { dataAgeDays, STALE_AFTER_DAYS, type Reporter } from './refresh.ts'
import { formatTable } from './snapshot-diff.ts'

export function stateLine(record: StateRecord, seconds: number): string {
  return [
    record.code.padEnd(3),
    record.status.padEnd(18),
    `rows ${String(record.rows).padStart(6)}`,
    `zips ${String(record.zips).padStart(5)}`,
    `edition ${(record.edition ?? '-').padEnd(12)}`,
    `${seconds.toFixed(1)}s`,
  ].join('  ')
}

type AgedKlass = keyof typeof STALE_AFTER_DAYS

/** Whole days since the state's last fetch (a manual drop: its edition date), or null when it has none or never ages. */
function ageOf(state: StateRecord, now: Date): { days: number; limit: number; klass: AgedKlass } | null {
  if (state.klass === 'static' || !state.last_fetch) return null
  return { days: Math.floor(dataAgeDays(state.last_fetch, now)), limit: STALE_AFTER_DAYS[state.klass], klass: state.klass }
}

/** A fallback serving because a preferred feed broke: `stale` whatever its age (pipeline/run/feed-preference.ts). */
const servedAfterFailure = (state: StateRecord): boolean => state.feeds_tried.some((a) => a.outcome === 'failed' || a.outcome === 'anchor_regression') && state.feeds_tried.at(-1)?.outcome === 'served'

/** Why a stale state is stale, in the words of its class: the age of its data against the class limit. */
function staleReason(state: StateRecord, now: Date): string {
  if (servedAfterFailure(state)) return `served by the ${state.feed} fallback: ${state.fallback_reason}`
  const age = ageOf(state, now)
  if (!age) return 'stale'
  const what = age.klass === 'reload' ? `edition ${state.last_fetch}` : `last fetch ${state.last_fetch}`
  return `${what} is ${age.days} days old, past the ${age.limit}-day ${age.klass} limit: data age, not a failure`
}

/**
 * The table printed at the end of `make refresh`. `age` is days since the last fetch (a manual
 * drop: since its edition date) against the class limit; a stale state's note says why it is stale.
 */
export function summaryTable(states: StateRecord[], now: Date): string {
  const table = formatTable(
    ['state', 'klass', 'feed', 'status', 'rows', 'zips', 'edition', 'effective_through', 'age (limit)', 'note'],
    states.map((s) => {
      const age = ageOf(s, now)
      const note = s.status === 'stale' ? staleReason(s, now) : (s.notes[0] ?? '').slice(0, 80)
      return [s.code, s.klass, s.feed, s.status, s.rows, s.zips, s.edition ?? '-', s.effective_through ?? '-', age ? `${age.days} d (${age.limit})` : '-', note]
    }),
  )
  return [table, staleExplanation(states, now), withoutBoundaryFile(states)].filter(Boolean).join('\n\n')
}

/**
 * The states served by an SST rate file with no boundary file beside it: their ZIP+4 and address
 * lookups answer at ZIP level. Empty when there is none.
 */
export function withoutBoundaryFile(states: StateRecord[]): string {
  const roles = (state: StateRecord) => new Set(state.sources.map((source) => FEED_ADAPTERS[state.feed].edition.role(source.name)))
  const codes = states.filter((state) => roles(state).has(sstFileRole(state.code, 'rate')) && !roles(state).has(sstFileRole(state.code, 'boundary'))).map((state) => state.code)
  if (codes.length === 0) return ''
  return `${codes.length} SST state${codes.length === 1 ? '' : 's'} served without a boundary file (none in the Boundary listing): ${codes.join(' ')}.\n` +
    '    Their ZIP+4 and address lookups answer as their ZIP does; a boundary file listed later is read by the next refresh.'
}

/**
 * Stale states grouped by class and data date, so a first run on manual drops months old reads as
 * what it is: the drops' age. Empty when no state is stale.
 */
export function staleExplanation(states: StateRecord[], now: Date): string {
  const fallbacks = states.filter((s) => s.status === 'stale' && servedAfterFailure(s))
  const stale = states.filter((s) => s.status === 'stale' && !servedAfterFailure(s))
  const fallbackLines = fallbacks.map((s) => `  ${s.code}: served by its ${s.feed} fallback while a preferred feed fails (${s.fallback_reason}).`)
  if (stale.length === 0) return fallbackLines.join('\n')
  const groups = new Map<string, StateRecord[]>()
  for (const state of stale) {
    const key = `${state.klass}|${state.last_fetch ?? ''}`
    groups.set(key, [...(groups.get(key) ?? []), state])
  }
  const lines = [...groups.values()].map((group) => {
    const [first] = group
    const age = ageOf(first, now)
    const codes = group.map((s) => s.code).join(' ')
    if (!age) return `  ${codes}: stale`
    const count = `${group.length} state${group.length === 1 ? '' : 's'}`
    return age.klass === 'reload'
      ? `  reload (manual drop, stale after ${age.limit} days): ${count} on the edition of ${first.last_fetch}, ${age.days} days old: ${codes}.\n` +
          '    A newer edition in TAXATLAS_DROPS makes them current again.'
      : `  auto (fetched, stale after ${age.limit} days): ${count} last fetched ${first.last_fetch}, ${age.days} days ago: ${codes}.\n` +
          '    The next refresh that fetches them makes them current again.'
  })
  return [
    `${stale.length} state${stale.length === 1 ? ' is' : 's are'} stale: the data in service is older than its class allows. This is the age of the`,
    'data, not a failure: those states answer from the data listed above, with a state_data_status warning.',
    ...lines,
    ...fallbackLines,
  ].join('\n')
}

export function terminalReporter(stream: NodeJS.WriteStream = process.stderr): Reporter {
  let bars: cliProgress.MultiBar | null = null
  let bar: cliProgress.SingleBar | null = null
  const print = (line: string) => (bars ? bars.log(`${line}\n`) : stream.write(`${line}\n`))
  return {
    start(total) {
      if (!stream.isTTY) return
      bars = new cliProgress.MultiBar(
        { stream, format: 'refresh [{bar}] {value}/{total} states', hideCursor: true, clearOnComplete: true },
        cliProgress.Presets.shades_classic,
      )
      bar = bars.create(total, 0)
    },
    state(record, seconds) {
      print(stateLine(record, seconds))
      bar?.increment()
    },
    info(message) {
      print(message)
    },
    finish() {
      bars?.stop()
      bars = null
    },
  }
}
