// `make audit`, second part: what each default-choice rule does to agreement with the official
// rates, state by state, and whether the figures the rules read still hold when they are chosen on
// the other official states only (leave-one-state-out).
//
// Two kinds of rule choose a ZIP's default answer:
// - the aggregator's choice rules (feeds/aggregator-defaults.ts), judged against the official rate
//   of the place covering the ZIP;
// - the official feeds' place choice between the place the ZIP's USPS city names and the one holding
//   its Census point (feeds/candidate-weights.ts placeShares). The official rate cannot judge its own
//   choice; the aggregator's figure, estimated from addresses, is the independent per-ZIP figure held.
import type { CandidateBasis, FeedResult } from '../../snapshot-contract/model.ts'
import type { Candidate, RateIndex } from '../../snapshot-contract/rate-index.ts'
import { defaultRates } from './consistency-audit.ts'
import { AGGREGATOR_RULES, DEFAULT_RULE_SETTINGS, type AggregatorRule, type RuleSettings } from '../feeds/aggregator-defaults.ts'
import type { AvalaraRow } from '../feeds/aggregator-drop.ts'

/** The official place choice, measured beside the aggregator rules. */
export const USPS_CITY_RULE = 'usps_city_preferred'

/** Values tried for the figures the aggregator rules read, the shipped ones among them. */
export const RULE_FIGURE_GRID = { minAgreeing: [1, 2, 3, 4], neighbourKm: [10, 25, 50] } as const

/**
 * A rule changes agreement in a state beyond noise when it moves at least this many ZIPs net, and at
 * least NOISE_SHARE of the state's audited ZIPs: one edition's single-ZIP quirks should not decide.
 */
export const NOISE_ZIPS = 3
export const NOISE_SHARE = 0.003

export type RuleAuditInput = {
  state: string
  index: RateIndex
  asOf: string
  /** the day the aggregator edition describes: the official rates of that day are what its figures can be held to */
  editionDate: string
  rows: AvalaraRow[]
  /** the state's aggregator rows compiled under the given rule settings */
  compile: (settings: RuleSettings) => FeedResult
}

export type RuleEffect = {
  rule: AggregatorRule | typeof USPS_CITY_RULE
  state: string
  /** ZIPs audited */
  zips: number
  /** ZIPs whose default changes with the rule */
  touched: number
  /** ZIPs agreeing with the rule in force, and without it */
  withRule: number
  withoutRule: number
  /** the rule lowers agreement beyond noise */
  harmful: boolean
}

export type HeldOutFigures = {
  state: string
  /** the figures that agree best on the other official states */
  learned: { minAgreeing: number; neighbourKm: number }
  /** agreement in the held-out state with the learned figures, and with the shipped ones */
  withLearned: number
  withShipped: number
  zips: number
}

export type RuleAudit = { effects: RuleEffect[]; heldOut: HeldOutFigures[] }

export const beyondNoise = (lost: number, zips: number): boolean => lost >= Math.max(NOISE_ZIPS, Math.ceil(zips * NOISE_SHARE))

const NOT_OFFICIAL_FIGURES: ReadonlySet<CandidateBasis> = new Set(['aggregator_figure', 'lower_bound'])

type StateLab = { state: string; official: Map<string, number>; aggregator: Map<string, number>; input: RuleAuditInput; agreement: Map<string, { agree: number; defaults: Map<string, number> }> }

const settingsKey = (settings: RuleSettings) => `${[...settings.rules].sort().join('+')}|${settings.minAgreeing}|${settings.neighbourKm}`

function lab(input: RuleAuditInput): StateLab {
  // A rate that changed after the aggregator's edition is no fault of a rule: each ZIP is held to the
  // official rate of the edition's day where the official data reaches back to it, else of asOf.
  const { index, editionDate, asOf } = input
  const official = new Map<string, number>()
  for (const i of index.entriesOfState(input.state)) {
    const entry = index.entryAt(i)
    // Where the official file prints no rate (an address-specific one), the default answered is the
    // aggregator's own figure or a lower bound: nothing official to hold a rule to.
    if (NOT_OFFICIAL_FIGURES.has(entry.candidates[0]!.basis)) continue
    const stack = entry.candidates[0]!.stack
    const then = index.authoritiesOn(stack, editionDate)
    official.set(entry.zip, then.length === stack.length ? then.reduce((sum, a) => sum + a.rate, 0) : index.combinedRate(stack, asOf))
  }
  const aggregator = new Map(input.rows.filter((row) => official.has(row.zip)).map((row) => [row.zip, row.combinedRate]))
  return { state: input.state, official, aggregator, input, agreement: new Map() }
}

/** Agreement of the state's aggregator defaults with the official rates under `settings` (compiled once per settings). */
function agreementUnder(state: StateLab, settings: RuleSettings): { agree: number; defaults: Map<string, number> } {
  const key = settingsKey(settings)
  let measured = state.agreement.get(key)
  if (!measured) {
    const defaults = defaultRates(state.input.compile(settings))
    let agree = 0
    for (const zip of state.aggregator.keys()) if (defaults.get(zip) === state.official.get(zip)) agree++
    state.agreement.set(key, (measured = { agree, defaults }))
  }
  return measured
}

function aggregatorRuleEffect(state: StateLab, rule: AggregatorRule): RuleEffect {
  const withRule = agreementUnder(state, DEFAULT_RULE_SETTINGS)
  const without = agreementUnder(state, { ...DEFAULT_RULE_SETTINGS, rules: new Set([...DEFAULT_RULE_SETTINGS.rules].filter((r) => r !== rule)) })
  let touched = 0
  for (const zip of state.aggregator.keys()) if (withRule.defaults.get(zip) !== without.defaults.get(zip)) touched++
  const zips = state.aggregator.size
  return { rule, state: state.state, zips, touched, withRule: withRule.agree, withoutRule: without.agree, harmful: beyondNoise(without.agree - withRule.agree, zips) }
}

/**
 * The official place choice: where a county part of a ZIP has a USPS-city candidate and a
 * Census-point candidate, the default as published (the USPS city preferred where the rule holds)
 * and with the point's place preferred throughout, each held to the aggregator's figure.
 */
function uspsCityEffect(state: StateLab): RuleEffect {
  const { index, asOf } = state.input
  let withRule = 0
  let withoutRule = 0
  let touched = 0
  for (const i of index.entriesOfState(state.state)) {
    const entry = index.entryAt(i)
    const figure = state.aggregator.get(entry.zip)
    if (figure === undefined) continue
    const published = entry.candidates[0]!
    const pointFirst = pointPreferred(entry.candidates)
    if (pointFirst !== published) touched++
    if (index.combinedRate(published.stack, asOf) === figure) withRule++
    if (index.combinedRate(pointFirst.stack, asOf) === figure) withoutRule++
  }
  const zips = state.aggregator.size
  return { rule: USPS_CITY_RULE, state: state.state, zips, touched, withRule, withoutRule, harmful: beyondNoise(withoutRule - withRule, zips) }
}

/** The highest-weight candidate once each county's Census-point candidate outweighs its USPS-city one. */
function pointPreferred(candidates: readonly Candidate[]): Candidate {
  const weightOf = new Map<Candidate, number>(candidates.map((c) => [c, c.weight]))
  const byCounty = new Map<string, Candidate[]>()
  for (const c of candidates) {
    const county = c.county?.fips ?? ''
    const list = byCounty.get(county)
    if (list) list.push(c)
    else byCounty.set(county, [c])
  }
  for (const list of byCounty.values()) {
    const usps = list.find((c) => c.basis === 'usps_city')
    const point = list.find((c) => c.basis === 'zip_point')
    if (!usps || !point) continue
    weightOf.set(point, Math.max(usps.weight, point.weight))
    weightOf.set(usps, Math.min(usps.weight, point.weight))
  }
  return [...candidates].sort((a, b) => weightOf.get(b)! - weightOf.get(a)!)[0]!
}

/** For each state: the grid figures that agree best on the other states, scored on the held-out one. */
function heldOutFigures(states: StateLab[]): HeldOutFigures[] {
  const grid = RULE_FIGURE_GRID.minAgreeing.flatMap((minAgreeing) => RULE_FIGURE_GRID.neighbourKm.map((neighbourKm) => ({ ...DEFAULT_RULE_SETTINGS, minAgreeing, neighbourKm })))
  const isShipped = (s: RuleSettings) => s.minAgreeing === DEFAULT_RULE_SETTINGS.minAgreeing && s.neighbourKm === DEFAULT_RULE_SETTINGS.neighbourKm
  return states.map((heldOut) => {
    const others = states.filter((s) => s !== heldOut)
    const score = (settings: RuleSettings) => others.reduce((sum, s) => sum + agreementUnder(s, settings).agree, 0)
    // The shipped figures win ties: a grid point must do better on the other states to be learned.
    const learned = grid.reduce((best, s) => (score(s) > score(best) || (score(s) === score(best) && isShipped(s) && !isShipped(best)) ? s : best))
    return {
      state: heldOut.state,
      learned: { minAgreeing: learned.minAgreeing, neighbourKm: learned.neighbourKm },
      withLearned: agreementUnder(heldOut, learned).agree,
      withShipped: agreementUnder(heldOut, DEFAULT_RULE_SETTINGS).agree,
      zips: heldOut.aggregator.size,
    }
  })
}

export function auditRules(inputs: RuleAuditInput[]): RuleAudit {
  const states = inputs.map(lab)
  const effects = states.flatMap((state) => [...AGGREGATOR_RULES.map((rule) => aggregatorRuleEffect(state, rule)), uspsCityEffect(state)])
  return { effects, heldOut: heldOutFigures(states) }
}

const percent = (part: number, whole: number) => (whole === 0 ? '-' : `${((part / whole) * 100).toFixed(1)}%`)
const signed = (n: number) => (n > 0 ? `+${n}` : String(n))

export const RULE_EFFECT_HEADER = ['rule', 'state', 'zips', 'touched', 'with rule', 'without rule', 'net', 'verdict']

export function ruleEffectRows(effects: RuleEffect[]): string[][] {
  return effects.map((e) => [
    e.rule,
    e.state,
    String(e.zips),
    String(e.touched),
    percent(e.withRule, e.zips),
    percent(e.withoutRule, e.zips),
    signed(e.withRule - e.withoutRule),
    e.harmful ? 'lowers agreement' : beyondNoise(e.withRule - e.withoutRule, e.zips) ? 'raises agreement' : 'within noise',
  ])
}

export const HELD_OUT_HEADER = ['held-out state', 'learned on the others', 'agreement (learned)', 'agreement (shipped)']

export function heldOutRows(heldOut: HeldOutFigures[]): string[][] {
  return heldOut.map((h) => [
    h.state,
    `min agreeing ${h.learned.minAgreeing}, neighbour ${h.learned.neighbourKm} km`,
    percent(h.withLearned, h.zips),
    percent(h.withShipped, h.zips),
  ])
}
