// One measured figure of `make bench`, with the target it is held against.
export type Measure = {
  name: string
  value: number
  unit: string
  target: number
  /** whether a lower or a higher value meets the target */
  better: 'lower' | 'higher'
}

export const meetsTarget = (m: Measure) => (m.better === 'lower' ? m.value <= m.target : m.value >= m.target)

/** value / target for "lower is better", target / value otherwise: below 1 means the target is met with room. */
export const ratioToTarget = (m: Measure) => (m.better === 'lower' ? m.value / m.target : m.target / m.value)
