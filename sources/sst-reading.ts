// How one state's SST rate file is read: what each jurisdiction type code (and, where a state
// mixes meanings under one code, each code range) stands for, and the state's rules the common
// reading lacks. Declared per state in its descriptor, never per ZIP (docs/data-sources.md,
// "SST member readings").
import * as z from 'zod'

export const SstRowRead = z.enum([
  'state',
  'county',
  'city',
  'district',
  /** a district tax whose area is the county the code names (its first regex group, 3-digit FIPS) */
  'county-district',
  /** a special jurisdiction whose rate replaces the state rate where it applies: never added on top */
  'replaces-state',
  /** rows that restate rates another layer already carries: dropped, with a note */
  'excluded',
  /** rows whose meaning is not decoded: left out of every answer, which says so (their count and kind); the decoded layers serve */
  'undecoded',
])
export type SstRowRead = z.infer<typeof SstRowRead>

const NEEDS_WHY: readonly SstRowRead[] = ['county-district', 'replaces-state', 'excluded', 'undecoded']

export const SstRowRule = z
  .object({
    /** jurisdiction type code, 2 digits (a 1-digit code in a file is padded first) */
    type: z.string().regex(/^\d{2}$/),
    /** a regular expression the whole jurisdiction code must match; every code of the type when absent */
    codes: z.string().optional(),
    read: SstRowRead,
    /** the evidence for the reading, quoted in the feed's notes or in its failure */
    why: z.string().optional(),
  })
  .refine((rule) => !NEEDS_WHY.includes(rule.read) || Boolean(rule.why), { message: 'a reading other than a plain level needs its evidence (why)' })
  .refine((rule) => rule.read !== 'county-district' || (rule.codes !== undefined && /\((?!\?)/.test(rule.codes)), {
    message: 'a county-district rule needs a codes pattern whose first group is the county FIPS',
  })
export type SstRowRule = z.infer<typeof SstRowRule>

export const SstReading = z.object({
  /** first matching rule wins; a row no rule matches is left out as an undecoded one is (trap P13) */
  rules: z.array(SstRowRule).min(1),
  /**
   * The most the local layers of one stack may sum to, in 1e-5 units, by statute: above it a layer
   * is counted twice and the state fails.
   */
  localCap: z.number().int().positive().optional(),
  /**
   * How a county's tax meets a city's: `added` (the common reading), `not-levied` (the county tax
   * applies only outside cities that levy their own) or `folded` (a city's rate already includes
   * the county's, so it is never below it). Under the last two a stack with a city carries no county.
   */
  countyWithinCities: z.enum(['added', 'not-levied', 'folded']).optional(),
})
export type SstReading = z.infer<typeof SstReading>

/** The reading every member shares: 45 state, 00 county, 01 city, 63 special district. */
export const COMMON_SST_RULES: readonly SstRowRule[] = [
  { type: '45', read: 'state' },
  { type: '00', read: 'county' },
  { type: '01', read: 'city' },
  { type: '63', read: 'district' },
]

/** The common reading with a state's own rules before it (first match wins). */
export const sstReading = (rules: SstRowRule[] = [], options: Omit<SstReading, 'rules'> = {}): SstReading =>
  SstReading.parse({ rules: [...rules, ...COMMON_SST_RULES], ...options })

export const COMMON_SST_READING = sstReading()

const patterns = new Map<string, RegExp>()
/** The whole-code regular expression of a rule's `codes`. */
export function codePattern(codes: string): RegExp {
  let pattern = patterns.get(codes)
  if (!pattern) patterns.set(codes, (pattern = new RegExp(`^(?:${codes})$`)))
  return pattern
}

/** The rule a row of `type` with jurisdiction `code` is read by; null when no rule names it. */
export function ruleFor(reading: SstReading, type: string, code: string): SstRowRule | null {
  return reading.rules.find((rule) => rule.type === type && (rule.codes === undefined || codePattern(rule.codes).test(code))) ?? null
}
