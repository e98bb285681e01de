// Reading a rate cell in the unit of its column. A column's unit is decided from a value the pipeline
// knows, the state rate, never from the size of one number: 0.1 is a percent in Colorado's DR 1002
// (the CD tax) and 0.09975 a fraction in Missouri's chart (publisher-evidence E2, E3). Two ways:
// the column prints the state layer's own rate (the unit under which that cell reads as the state
// rate), or it prints totals that include the state rate (the unit under which most of them lie
// between the state rate and ten times it: read the other way they are a hundred times off, so at
// most one unit can fit).
//
// Figures may carry float noise from a spreadsheet or a GIS export (`7.81250000000001`, E5): digits
// past the publisher's precision that are all zeros or all nines up to the 8th decimal are noise, and
// the figure is the nearest value at that precision; any other extra digit is a figure the reader
// does not guess at. A figure finer than the served 1e-5 (1/10000 of a percent: 7.8125) is rounded
// half-up once, as a whole.
import { formatRate } from '../../snapshot-contract/rate-units.ts'

export type RateUnit = 'percent' | 'fraction'

/** A figure in 1e-5 units; `rounded`: it was finer than 1e-5 and rounded half-up. */
export type RateFigure = { units: number; rounded: boolean }

/** Decimal places past which a percent's digits must be noise: percents printed to 1/10000 (7.8125). */
const PERCENT_PLACES = 4
const FRACTION_PLACES = PERCENT_PLACES + 2
/** How many digits past the precision noise is judged on. */
const NOISE_DIGITS = 4
const DECIMAL = /^(\d*)(?:\.(\d*))?$/

/** A number as plain decimal text (no exponent), or a cell's text trimmed, with a trailing `%` left on. */
export function figureText(cell: string | number): string {
  if (typeof cell === 'string') return cell.trim()
  const text = String(cell)
  return /e/i.test(text) ? cell.toFixed(20).replace(/0+$/, '').replace(/\.$/, '') : text
}

/**
 * A decimal figure in `unit` as 1e-5 units: exact to the publisher's precision (1e-4 percent, 1e-6
 * as a fraction), noise past it dropped, half-up to 1e-5; or why it is no figure.
 */
export function figureUnits(text: string, unit: RateUnit): RateFigure | string {
  const match = DECIMAL.exec(text)
  if (!text || !match || (match[1] === '' && !match[2])) return `${JSON.stringify(text)} is not a number`
  const places = unit === 'percent' ? PERCENT_PLACES : FRACTION_PLACES
  const decimals = match[2] ?? ''
  // the figure in millionths of the whole (1e-6 units): 1e-4 percent, or the 6th decimal of a fraction
  let millionths = Number(match[1] || '0') * 10 ** places + Number(decimals.slice(0, places).padEnd(places, '0'))
  const extra = decimals.slice(places)
  if (/[1-9]/.test(extra)) {
    const noise = extra.slice(0, NOISE_DIGITS).padEnd(NOISE_DIGITS, '0')
    if (noise === '9'.repeat(NOISE_DIGITS)) millionths++
    else if (noise !== '0'.repeat(NOISE_DIGITS)) return `${text} has more decimals than the ${places} its publisher prints, and they are not float noise`
  }
  if (!Number.isSafeInteger(millionths)) return `${text} is out of range`
  return { units: Math.floor((millionths + 5) / 10), rounded: millionths % 10 !== 0 }
}

/** A cell in its column's unit: a `%` string is a percent whatever the column's unit. */
export function cellUnits(cell: string | number, unit: RateUnit): RateFigure | string {
  const text = figureText(cell)
  const percent = /^(.*?)\s*%$/.exec(text)
  return percent ? figureUnits(percent[1]!, 'percent') : figureUnits(text, unit)
}

const UNITS: readonly RateUnit[] = ['percent', 'fraction']

/** The unit under which `figure` reads as exactly the state rate; null when neither does. */
const unitReading = (figure: string | number, fits: (units: number) => boolean): RateUnit[] =>
  UNITS.filter((unit) => {
    const read = cellUnits(figure, unit)
    return typeof read !== 'string' && fits(read.units)
  })

/**
 * The unit of a column whose `stateCells` print the state layer's rate: the one under which most of
 * them read as `stateRate`. Throws when none does: a state rate other than the rules table's (units
 * changed, or the wrong file).
 */
export function unitFromStateCells(stateCells: readonly (string | number)[], stateRate: number, where: string): RateUnit {
  return majorityUnit(stateCells, (units) => units === stateRate, where, `reads as the ${formatRate(stateRate)} state rate`)
}

/**
 * The unit of a column of totals that each include the state rate: the one under which most of them
 * lie between the state rate and ten times it. Throws when neither unit fits most of them.
 */
export function unitFromTotals(totals: readonly (string | number)[], stateRate: number, where: string): RateUnit {
  return majorityUnit(totals, (units) => units >= stateRate && units <= stateRate * 10, where, `lies between the ${formatRate(stateRate)} state rate and ten times it`)
}

function majorityUnit(figures: readonly (string | number)[], fits: (units: number) => boolean, where: string, rule: string): RateUnit {
  const counts = { percent: 0, fraction: 0 }
  for (const figure of figures) for (const unit of unitReading(figure, fits)) counts[unit]++
  const unit = UNITS.find((u) => counts[u] * 2 > figures.length)
  if (unit) return unit
  const sample = figures.slice(0, 3).map((f) => JSON.stringify(f)).join(', ')
  throw new Error(`${where}: the unit of its rates cannot be decided: of ${figures.length} figures (${sample}…), ${counts.percent} read as percents and ${counts.fraction} as fractions where one ${rule}`)
}
