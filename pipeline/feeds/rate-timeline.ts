// A rate over time as spans (ISO dates, `to` inclusive, null = open), ordered and not overlapping.
// Two listings of one code merge when they agree on every day both cover (trap P21: key by code
// and window); timelines combine day by day over the days all of them cover.

export type Span = { from: string; to: string | null; rate: number }

const DAY_MS = 86_400_000
const isoDay = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS
const dayIso = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10)
const OPEN = Number.POSITIVE_INFINITY

export const dayBefore = (iso: string): string => dayIso(isoDay(iso) - 1)
export const dayAfter = (iso: string): string => dayIso(isoDay(iso) + 1)

type DaySpan = { from: number; to: number; rate: number }
const toDays = (spans: readonly Span[]): DaySpan[] => spans.map((s) => ({ from: isoDay(s.from), to: s.to === null ? OPEN : isoDay(s.to), rate: s.rate }))
const toSpans = (spans: DaySpan[]): Span[] => spans.map((s) => ({ from: dayIso(s.from), to: s.to === OPEN ? null : dayIso(s.to), rate: s.rate }))

/** Adjacent spans of one rate become one. */
function joined(spans: DaySpan[]): DaySpan[] {
  const out: DaySpan[] = []
  for (const span of [...spans].sort((a, b) => a.from - b.from)) {
    const last = out.at(-1)
    if (last && last.rate === span.rate && last.to + 1 >= span.from) last.to = Math.max(last.to, span.to)
    else out.push({ ...span })
  }
  return out
}

/** The union of two listings of one code, or the first day they disagree on. */
export function mergeSpans(a: readonly Span[], b: readonly Span[]): { ok: true; spans: Span[] } | { ok: false; day: string; rates: [number, number] } {
  const left = toDays(a)
  const right = toDays(b)
  for (const x of left) {
    for (const y of right) {
      const from = Math.max(x.from, y.from)
      if (from <= Math.min(x.to, y.to) && x.rate !== y.rate) return { ok: false, day: dayIso(from), rates: [x.rate, y.rate] }
    }
  }
  // Where both cover a day they agree, so joining same-rate spans leaves one span per day.
  return { ok: true, spans: toSpans(joined([...left, ...right])) }
}

/** The first day a timeline has a rate; null for none. */
export const firstDay = (spans: readonly Span[]): string | null => spans.reduce<string | null>((min, s) => (min === null || s.from < min ? s.from : min), null)

/**
 * `combine` of the timelines' rates on each day all of them have one, from `since` on: the spans
 * break wherever any input changes. Days some input lacks are left out.
 */
export function combineSpans(timelines: readonly (readonly Span[])[], combine: (rates: number[]) => number, since: string | null = null): Span[] {
  const inputs = timelines.map(toDays)
  const start = since === null ? Number.NEGATIVE_INFINITY : isoDay(since)
  const breaks = [...new Set(inputs.flatMap((spans) => spans.flatMap((s) => [s.from, s.to === OPEN ? OPEN : s.to + 1])))]
    .filter((day) => day !== OPEN)
    .sort((x, y) => x - y)
  const out: DaySpan[] = []
  breaks.forEach((from, i) => {
    const to = i + 1 < breaks.length ? breaks[i + 1]! - 1 : OPEN
    if (to < start) return
    const rates = inputs.map((spans) => spans.find((s) => s.from <= from && from <= s.to)?.rate)
    if (rates.some((rate) => rate === undefined)) return
    out.push({ from: Math.max(from, start), to, rate: combine(rates as number[]) })
  })
  return toSpans(joined(out))
}
