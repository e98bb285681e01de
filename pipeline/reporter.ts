// Progress for a refresh run on stderr: one line per state as it finishes, a live bar when stderr
// is a terminal, and a summary table at the end.
import cliProgress from 'cli-progress'
import type { StateRecord } from '../snapshot-contract/manifest.ts'
import type { Reporter } from './refresh.ts'
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

export function summaryTable(states: StateRecord[]): string {
  return formatTable(
    ['state', 'klass', 'feed', 'status', 'rows', 'zips', 'edition', 'effective_through', 'note'],
    states.map((s) => [s.code, s.klass, s.feed, s.status, s.rows, s.zips, s.edition ?? '-', s.effective_through ?? '-', (s.notes[0] ?? '').slice(0, 80)]),
  )
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
