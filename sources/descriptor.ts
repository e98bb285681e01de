// The contract of a state descriptor: everything the pipeline needs to know about one state,
// declared as data. A state lists its feeds in order of preference (the official source first,
// then the manual drop or the statute): the first that serves wins (pipeline/feed-preference.ts).
import { z } from 'zod'

export const Klass = z.enum(['auto', 'reload', 'static'])

const SstFeed = z.object({
  kind: z.literal('sst'),
  /** official directory of the SST rate files */
  ratesUrl: z.url(),
  /**
   * the rate file in service, as posted (names are discovered, then pinned here); absent: no file
   * is known for the state, and the next feed serves
   */
  rateFile: z.string().regex(/^[A-Z]{2}R\d{4}Q[1-4][A-Za-z]{3}\d{1,2}\.(csv|zip)$/i).optional(),
  boundaryUrl: z.url().optional(),
  boundaryFile: z.string().regex(/^[A-Z]{2}B\d{4}Q[1-4][A-Za-z]{3}\d{1,2}\.(csv|zip)$/i).optional(),
})

const CdtfaFeed = z.object({
  kind: z.literal('cdtfa'),
  url: z.url(),
})

const IdorOrdmacheFeed = z.object({
  kind: z.literal('idor-ordmache'),
  /** IDOR's machine-readable rate file (fixed width, docs/data-sources.md#illinois) */
  url: z.url(),
})

const AvalaraDropFeed = z.object({
  kind: z.literal('avalara-zip5'),
  /** file name pattern inside the drop directory; the newest edition wins */
  dropPattern: z.string(),
})

const StatutoryFeed = z.object({
  kind: z.literal('statutory'),
  /** where the statutory rate is stated */
  citation: z.string(),
})

export const Feed = z.discriminatedUnion('kind', [SstFeed, CdtfaFeed, IdorOrdmacheFeed, AvalaraDropFeed, StatutoryFeed])
export type Feed = z.infer<typeof Feed>
export type FeedKind = Feed['kind']
export const FEED_KINDS = ['sst', 'cdtfa', 'idor-ordmache', 'avalara-zip5', 'statutory'] as const satisfies readonly FeedKind[]

/** The refresh class of the data a feed yields: official files are re-fetched, drops are dropped in, statutes stand. */
export const klassOfFeed = (kind: FeedKind): z.infer<typeof Klass> =>
  kind === 'avalara-zip5' ? 'reload' : kind === 'statutory' ? 'static' : 'auto'

export const Anchor = z.object({
  /** the feed the expectation was read from: only that feed's data is held to it */
  feed: z.enum(FEED_KINDS),
  /** a ZIP whose answer is pinned */
  zip: z.string().regex(/^\d{5}$/),
  /** expected combined rate of the default (highest-weight) candidate, 5-decimal string */
  expected: z.string().regex(/^\d\.\d{5}$/),
  /** the date the expectation holds on (rows are chosen by this date) */
  asOf: z.iso.date(),
  /** the edition the expectation was read from; older editions are not checked against it */
  edition: z.string(),
  /** the rows or document the expectation comes from */
  source: z.string(),
})
export type Anchor = z.infer<typeof Anchor>

export const NexusRule = z.object({
  dollarThreshold: z.number().int().nonnegative().nullable(),
  transactionThreshold: z.number().int().nonnegative().nullable(),
  /** how the two thresholds combine */
  combine: z.enum(['sales_only', 'sales_or_transactions', 'sales_and_transactions', 'none']),
  measurementPeriod: z.string(),
  salesCounted: z.string(),
  marketplaceSalesCounted: z.string(),
})

export const StateDescriptor = z.object({
  code: z.string().regex(/^[A-Z]{2}$/),
  name: z.string(),
  fips: z.string().regex(/^\d{2}$/),
  /** the class of the preferred feed (klassOfFeed(feeds[0])) */
  klass: Klass,
  /** in order of preference; the first one that serves is used */
  feeds: z.array(Feed).min(1),
  /** statutory state rate in 1e-5 units */
  stateRate: z.number().int().nonnegative(),
  /** lower and upper legal bounds of a combined rate in 1e-5 units (invariant) */
  combinedBounds: z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]),
  hasSalesTax: z.boolean(),
  localTaxes: z.enum(['yes', 'no', 'limited', 'local_only']),
  nexus: NexusRule,
  sourcing: z.enum(['origin', 'destination', 'mixed', 'n/a']),
  freight: z.string(),
  freightTaxable: z.boolean(),
  sstStatus: z.string(),
  /** where the rules above come from */
  rulesSource: z.string(),
  operatorFlag: z.enum(['maintenance', 'manual']).optional(),
  anchors: z.array(Anchor),
})
export type StateDescriptor = z.infer<typeof StateDescriptor>

export const SST_RATES_URL = 'https://www.streamlinedsalestax.org/ratesandboundry/Rates/'
export const SST_BOUNDARY_URL = 'https://www.streamlinedsalestax.org/ratesandboundry/Boundary/'

export function defineState(descriptor: StateDescriptor): StateDescriptor {
  const parsed = StateDescriptor.parse(descriptor)
  const preferred = parsed.feeds[0]!.kind
  if (parsed.klass !== klassOfFeed(preferred)) throw new Error(`${parsed.code}: klass ${parsed.klass}, but its preferred feed ${preferred} is ${klassOfFeed(preferred)}`)
  const kinds = parsed.feeds.map((feed) => feed.kind)
  if (new Set(kinds).size !== kinds.length) throw new Error(`${parsed.code}: a feed kind listed twice (${kinds.join(', ')})`)
  for (const anchor of parsed.anchors) {
    if (!kinds.includes(anchor.feed)) throw new Error(`${parsed.code}: anchor ${anchor.zip} belongs to feed ${anchor.feed}, which the state does not list`)
  }
  return parsed
}
