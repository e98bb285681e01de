// A new official feed earns its place: before a state on trial (a descriptor feed with `trial`)
// switches from the aggregator drop to its own official file, the two are compared ZIP by ZIP the
// way `make audit` compares them (consistency-audit.ts), and the official feed is held back when it
// disagrees on more than a set share of ZIPs, until the operator accepts it. A parser that reads a
// percent as a fraction, or binds a county's rate to the wrong ZIPs, shows up here as a landslide
// of disagreement long before it reaches an answer.
import type { Feed, StateDescriptor } from '../../sources/descriptor.ts'
import type { Geography } from '../../snapshot-contract/geography-model.ts'
import type { OfficialTrial, StateRecord } from '../../snapshot-contract/manifest.ts'
import type { FeedResult } from '../../snapshot-contract/model.ts'
import type { RateIndex } from '../../snapshot-contract/rate-index.ts'
import { auditState, DISAGREEMENT_CLASSES, summarizeAudit } from '../audit/consistency-audit.ts'
import { compileAvalara } from '../feeds/avalara-zip5/compile.ts'
import type { StateSources } from './load-state.ts'
import { parseDrop } from '../feeds/manual-drops.ts'
import type { PipelineSettings } from '../settings.ts'

export type TrialInput = {
  descriptor: StateDescriptor
  feed: Feed
  /** the record of the data in service, when there is data in service */
  inService: StateRecord | null
  result: FeedResult
  index: RateIndex
  sources: StateSources
  geography: Geography
  /** the date both are read on */
  asOf: string
  settings: Pick<PipelineSettings, 'trialDisagreementLimit' | 'acceptOfficial'>
}

/** What the trial found: `held` says why the feed may not serve yet (null: it may). */
export type TrialVerdict = { trial: OfficialTrial | null; held: string | null; notes: string[] }

const percent = (share: number) => `${(share * 100).toFixed(1)}%`

/** Whether the feed is on trial in this run: a feed marked `trial` that is not already the one in service. */
export const onTrial = (feed: Feed, inService: StateRecord | null): boolean => 'trial' in feed && feed.trial === true && inService?.feed !== feed.kind

export function judgeTrial(input: TrialInput): TrialVerdict {
  const { descriptor, feed, result, settings } = input
  if (!onTrial(feed, input.inService)) return { trial: null, held: null, notes: [] }
  const accepted = settings.acceptOfficial.includes(descriptor.code)
  const acceptedNote = accepted ? `; accepted by the operator (TAXATLAS_ACCEPT_OFFICIAL=${descriptor.code})` : ''
  if (!input.sources.drop) {
    const why = input.sources.dropError ? `the aggregator drop could not be read (${input.sources.dropError})` : 'no aggregator drop of the state is held'
    return { trial: null, held: null, notes: [`${feed.kind} on trial: not compared with the aggregator, ${why}${acceptedNote}`] }
  }
  const parsed = parseDrop(input.sources.drop)
  const compiled = compileAvalara({ ...parsed, state: descriptor.code, geography: input.geography })
  const audit = auditState({
    state: descriptor.code,
    index: input.index,
    officialFeed: feed.kind,
    officialEdition: result.edition,
    asOf: input.asOf,
    rows: parsed.rows,
    compiled,
    aggregatorEdition: parsed.edition,
    unplaced: result.unplaced.map((u) => ({ rate: u.rate, counties: u.counties ?? null, until: u.until ?? null })),
  })
  const summary = summarizeAudit(audit)
  const disagreeing = summary.zips - summary.defaultAgrees
  const share = summary.zips === 0 ? 1 : disagreeing / summary.zips
  const limit = settings.trialDisagreementLimit
  const trial: OfficialTrial = {
    aggregator_edition: parsed.edition.edition,
    as_of: input.asOf,
    zips: summary.zips,
    agreeing: summary.defaultAgrees,
    disagreement_share: Number(share.toFixed(4)),
    limit,
    by_class: summary.byClass,
    accepted,
  }
  const classes = DISAGREEMENT_CLASSES.filter((c) => summary.byClass[c] > 0).map((c) => `${c} ${summary.byClass[c]}`).join(', ')
  const sample = audit.zips.filter((z) => z.aggregatorDefault !== z.official).slice(0, 5).map((z) => `${z.zip} official ${z.official} vs aggregator ${z.aggregatorDefault}`)
  const comparison =
    `${feed.kind} ${result.edition} against aggregator edition ${parsed.edition.edition} on ${input.asOf}: ` +
    `${disagreeing} of ${summary.zips} ZIPs disagree (${percent(share)}, limit ${percent(limit)})` +
    (classes ? ` [${classes}]` : '') +
    (sample.length ? `; e.g. ${sample.join('; ')} (1e-5 units)` : '')
  if (summary.zips === 0) {
    const held = accepted ? null : `${feed.kind} on trial: no ZIP answered by both it and the aggregator, so it cannot earn its place (${comparison}); accept it with TAXATLAS_ACCEPT_OFFICIAL=${descriptor.code}`
    return { trial, held, notes: [`${feed.kind} on trial: ${comparison}${acceptedNote}`] }
  }
  if (share > limit && !accepted) {
    return { trial, held: `${feed.kind} on trial held back, the aggregator keeps serving: ${comparison}. If the official file is right, accept it with TAXATLAS_ACCEPT_OFFICIAL=${descriptor.code}`, notes: [] }
  }
  return { trial, held: null, notes: [`${feed.kind} on trial, replaces the aggregator: ${comparison}${acceptedNote}`] }
}
