// The warning band: how close to a threshold counts as "approaching". Written as a fraction
// ("0.25" = within 25%), kept as basis points so the status test stays in integer arithmetic.
import { MONEY_SCALE, parseMoney } from '../../sale/money.ts'

export const DEFAULT_NEXUS_BAND = '0.25'

export type BandParse = { ok: true; basisPoints: number } | { ok: false; reason: string }

/** A fraction strictly between 0 and 1 with at most 4 decimals. */
export function parseBand(text: string): BandParse {
  const parsed = parseMoney(text)
  if (!parsed.ok) return { ok: false, reason: `the band ${JSON.stringify(text)} is not a decimal fraction: ${parsed.reason}` }
  if (parsed.units <= 0 || parsed.units >= MONEY_SCALE) return { ok: false, reason: `the band must be between 0 and 1 (exclusive), e.g. 0.25; got ${text}` }
  return { ok: true, basisPoints: parsed.units }
}
