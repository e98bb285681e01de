// `make bench` writes its figures into docs/benchmarks.md itself, between two marker comments, so
// no figure there is ever copied by hand. The text around the markers (the method) is written by
// hand and left exactly as it is.
import os from 'node:os'
import type { BenchRow } from './bench-table.ts'

export const BENCH_START = '<!-- bench:start: written by `make bench`, do not edit by hand -->'
export const BENCH_END = '<!-- bench:end -->'

export type Machine = { cores: number; cpu: string; memoryGiB: number; node: string; os: string }

export function thisMachine(): Machine {
  const cpus = os.cpus()
  return {
    cores: cpus.length,
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    memoryGiB: os.totalmem() / 1024 ** 3,
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
  }
}

export type BenchReport = {
  /** ISO timestamp of the run */
  measuredAt: string
  machine: Machine
  rows: BenchRow[]
  /** how the load lines were driven (connections, seconds, turns) */
  conditions: string
  notes: string[]
}

const COLUMNS: [string, keyof BenchRow][] = [
  ['measure', 'measure'],
  ['value', 'value'],
  ['target', 'target'],
  ['ratio', 'ratio'],
  ['', 'met'],
  ['req/s', 'requestsPerSecond'],
  ['p50 ms', 'p50Ms'],
  ['p99 ms', 'p99Ms'],
  ['server CPU µs/req', 'serverCpuMicros'],
]

const cell = (text: string) => text.trim().replace(/\|/g, '\\|')

/** The Markdown written between the markers: when, on what, the table, and the run's notes. */
export function benchSection(report: BenchReport): string {
  const { machine } = report
  const lines = [
    `Measured ${report.measuredAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')} on ${machine.cores} cores (${machine.cpu}), ` +
      `${machine.memoryGiB.toFixed(1)} GiB of memory, Node ${machine.node}, ${machine.os}.`,
    '',
    `| ${COLUMNS.map(([title]) => title).join(' | ')} |`,
    `|${COLUMNS.map(() => '---').join('|')}|`,
    ...report.rows.map((row) => `| ${COLUMNS.map(([, key]) => cell(row[key])).join(' | ')} |`),
    '',
    report.conditions,
    ...report.notes.map((note) => `\nNote: ${note}`),
  ]
  return lines.join('\n')
}

/** `doc` with everything between the markers replaced by `section`; the rest is kept byte for byte. */
export const withBenchSection = (doc: string, section: string): string => withMarkedSection(doc, BENCH_START, BENCH_END, section)

/** `doc` with the text between its `startMarker` and `endMarker` lines replaced by `section`. */
export function withMarkedSection(doc: string, startMarker: string, endMarker: string, section: string): string {
  const start = doc.indexOf(startMarker)
  const end = doc.indexOf(endMarker)
  if (start < 0 || end < 0 || end < start || doc.indexOf(startMarker, start + 1) >= 0 || doc.indexOf(endMarker, end + 1) >= 0) {
    throw new Error(`the document must hold ${startMarker} once, followed by ${endMarker} once`)
  }
  return `${doc.slice(0, start + startMarker.length)}\n${section}\n${doc.slice(end)}`
}
