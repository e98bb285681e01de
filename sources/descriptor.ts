// The contract of a state descriptor: what the pipeline needs to know about one state's data,
// declared as data (the state's legal facts are in state-facts.ts). Switching a state's feed is a
// change of its `feed` line.
import { z } from 'zod'
import { FeedKind } from '../snapshot-contract/feed-traits.ts'

export const Klass = z.enum(['auto', 'reload', 'static'])

// Feeds name where editions are listed, never an edition: every refresh discovers the newest one
// (an operator may pin one with TAXATLAS_PIN, see pipeline/settings.ts).
const SstFeed = z.object({
  kind: z.literal(FeedKind.enum.sst),
  /** the SST Governing Board's index page of rate files; the state's newest file is chosen there */
  ratesUrl: z.url(),
  /** index page of boundary files; when set, the state's newest boundary file binds ZIPs too */
  boundaryUrl: z.url().optional(),
})

const CdtfaFeed = z.object({
  kind: z.literal(FeedKind.enum.cdtfa),
  /** the CDTFA rates page that links the current SalesTaxRates<M>-<D>-<YY>.xlsx workbook */
  pageUrl: z.url(),
})

const AvalaraDropFeed = z.object({
  kind: z.literal(FeedKind.enum['avalara-zip5']),
  /** file name pattern inside the drop directory; the newest edition wins */
  dropPattern: z.string(),
})

/** The state rate and its windows come from the rules table (state-facts.ts). */
const StatutoryFeed = z.object({
  kind: z.literal(FeedKind.enum.statutory),
})

export const Feed = z.discriminatedUnion('kind', [SstFeed, CdtfaFeed, AvalaraDropFeed, StatutoryFeed])
export type Feed = z.infer<typeof Feed>
/** Every feed kind of the snapshot contract has a descriptor form, and no descriptor names another. */
const everyFeedKindDescribed: [FeedKind, Feed['kind']] extends [Feed['kind'], FeedKind] ? true : never = true
void everyFeedKindDescribed

export const Anchor = z.object({
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

export const StateDescriptor = z.object({
  code: z.string().regex(/^[A-Z]{2}$/),
  name: z.string(),
  fips: z.string().regex(/^\d{2}$/),
  klass: Klass,
  feed: Feed,
  /** lower and upper legal bounds of a combined rate in 1e-5 units (invariant) */
  combinedBounds: z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]),
  operatorFlag: z.enum(['maintenance', 'manual']).optional(),
  anchors: z.array(Anchor),
})
export type StateDescriptor = z.infer<typeof StateDescriptor>

export const SST_RATES_URL = 'https://www.streamlinedsalestax.org/ratesandboundry/Rates/'
export const SST_BOUNDARY_URL = 'https://www.streamlinedsalestax.org/ratesandboundry/Boundary/'
export const CDTFA_RATES_PAGE = 'https://www.cdtfa.ca.gov/taxes-and-fees/sales-use-tax-rates.htm'

export const defineState = (descriptor: StateDescriptor): StateDescriptor =>
  StateDescriptor.parse(descriptor)
