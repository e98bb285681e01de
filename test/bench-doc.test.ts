// `make bench` writes its table into docs/benchmarks.md between the markers and leaves the
// hand-written method around them untouched. A synthetic run's results go through the same
// table builder the bench uses.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { BENCH_END, BENCH_START, benchSection, thisMachine, withBenchSection, type BenchReport } from './bench/bench-doc.ts'
import { benchRows } from './bench/bench-table.ts'
import type { LoadRun } from './bench/lookup-bench.ts'
import type { Measure } from './bench/measure.ts'
import { PROJECT_ROOT } from './support/shared.ts'

const run = (target: string, requestsPerSecond: number, ratioToBare: number): LoadRun => ({
  target,
  requestsPerSecond,
  p50Ms: 3,
  p99Ms: 18,
  errors: 0,
  non2xx: 0,
  statusCodes: { 200: 1000 },
  ratioToBare,
  serverCpuMicros: 66,
})

const zipLookups: Measure = { name: 'ZIP lookups', value: 0.67, unit: '× bare', target: 0.6, better: 'higher' }
const fullRefresh: Measure = { name: 'full refresh (mirror dir)', value: 14.1, unit: 's', target: 120, better: 'lower' }
const startUp: Measure = { name: 'server start-up to first answer (median of 5)', value: 512, unit: 'ms', target: 500, better: 'lower' }

const report: BenchReport = {
  measuredAt: '2026-11-22T10:15:00.123Z',
  machine: { cores: 2, cpu: 'Test CPU @ 2.0GHz', memoryGiB: 23.5, node: 'v20.19.0', os: 'Linux 6.1.0 x64' },
  rows: benchRows({
    pipeline: [fullRefresh],
    sizes: [{ name: 'rates.bin', mb: 12.34 }],
    server: [startUp],
    lookups: { measures: [zipLookups], runs: [run('bare node:http (632 bytes)', 17_367, 1), run('ZIP lookups', 13_675, 0.67)], uncachedRuns: [run('ZIP lookups, reply cache off', 5_500, 0.32)] },
    portability: [],
  }),
  conditions: 'lookups: autocannon, 50 connections, 20 s per line in 8 turns',
  notes: ['coordinates: sample of 200 paths answered {"200":190,"400":10}'],
}

const before = '# Benchmarks\n\n## Method\n\nHand-written method | with a pipe.\n\n## Figures\n\n'
const after = '\n\n## Targets\n\nHand-written text after the figures.\n'
const doc = (inside: string) => `${before}${BENCH_START}\n${inside}\n${BENCH_END}${after}`

describe('the bench writes its figures into docs/benchmarks.md', () => {
  it('replaces what lies between the markers with the run and keeps the rest byte for byte', () => {
    const old = doc('| measure | value |\n|---|---|\n| ZIP lookups | 0.59 × bare |')
    const written = withBenchSection(old, benchSection(report))
    expect(written.startsWith(`${before}${BENCH_START}\n`)).toBe(true)
    expect(written.endsWith(`\n${BENCH_END}${after}`)).toBe(true)
    expect(written).not.toContain('0.59 × bare')
    const inside = written.slice(written.indexOf(BENCH_START) + BENCH_START.length, written.indexOf(BENCH_END))
    expect(inside).toContain('Measured 2026-11-22 10:15:00 UTC on 2 cores (Test CPU @ 2.0GHz), 23.5 GiB of memory, Node v20.19.0, Linux 6.1.0 x64.')
    expect(inside).toContain('| measure | value | target | ratio |  | req/s | p50 ms | p99 ms | server CPU µs/req |')
    expect(inside).toContain('| full refresh (mirror dir) | 14.1 s | ≤ 120 s | 0.12 | met |  |  |  |  |')
    expect(inside).toContain('| server start-up to first answer (median of 5) | 512.0 ms | ≤ 500 ms | 1.02 | MISSED |')
    expect(inside).toContain('| rates.bin | 12.34 MB |')
    expect(inside).toContain('| ZIP lookups | 0.67 × bare | ≥ 0.6 × bare | 0.90 | met | 13675 | 3 | 18 | 66 |')
    expect(inside).toContain('| ZIP lookups, reply cache off | 0.32 × bare |')
    expect(inside).toContain('lookups: autocannon, 50 connections, 20 s per line in 8 turns')
    expect(inside).toContain('Note: coordinates: sample of 200 paths answered {"200":190,"400":10}')
    // a second run replaces the first one's figures instead of adding to them
    expect(withBenchSection(written, benchSection(report))).toBe(written)
  })

  it('refuses a document without the markers once each, in order', () => {
    const section = benchSection(report)
    expect(() => withBenchSection(`${before}${after}`, section)).toThrow(/must hold .*bench:start.* once, followed by .*bench:end.* once/)
    expect(() => withBenchSection(`${BENCH_END}\n${BENCH_START}`, section)).toThrow(/once/)
    expect(() => withBenchSection(`${doc('a')}${doc('b')}`, section)).toThrow(/once/)
  })

  it('describes the machine it runs on', () => {
    const machine = thisMachine()
    expect(machine.cores).toBeGreaterThan(0)
    expect(machine.memoryGiB).toBeGreaterThan(0)
    expect(machine.node).toBe(process.version)
  })

  it('finds its markers in the committed docs/benchmarks.md', async () => {
    const committed = await readFile(path.join(PROJECT_ROOT, 'docs', 'benchmarks.md'), 'utf8')
    const rewritten = withBenchSection(committed, benchSection(report))
    expect(rewritten.slice(0, rewritten.indexOf(BENCH_START))).toBe(committed.slice(0, committed.indexOf(BENCH_START)))
    expect(rewritten.slice(rewritten.indexOf(BENCH_END))).toBe(committed.slice(committed.indexOf(BENCH_END)))
  })
})
