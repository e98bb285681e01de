// The contract of a state descriptor: what the pipeline needs to know about one state's data,
// declared as data (the state's legal facts are in state-facts.ts). A state lists its feeds in order
// of preference (the official source first, then the manual drop or the statute): the first that
// serves wins (pipeline/run/feed-preference.ts).
import * as z from 'zod'
import { FeedKind, feedTraits, type SourceKind } from '../snapshot-contract/feed-traits.ts'
import { SstReading } from './sst-reading.ts'

export const Klass = z.enum(['auto', 'reload', 'static'])

export const SST_RATES_URL = 'https://www.streamlinedsalestax.org/ratesandboundry/Rates/'
export const SST_BOUNDARY_URL = 'https://www.streamlinedsalestax.org/ratesandboundry/Boundary/'

// Feeds name where editions are listed, never an edition: every refresh discovers the newest one
// (an operator may pin one with TAXATLAS_PIN, see pipeline/settings.ts).
const SstFeed = z.object({
  kind: z.literal(FeedKind.enum.sst),
  /** the SST Governing Board's index page of rate files; the state's newest file is chosen there */
  ratesUrl: z.url(),
  /**
   * the SST Governing Board's index page of boundary files: the state's newest boundary file there
   * binds ZIP+4 ranges and addresses; a state with none listed loads its rates alone
   */
  boundaryUrl: z.url().default(SST_BOUNDARY_URL),
  /** what the state's type codes mean and its own rules; the common reading (45/00/01/63) when absent */
  reading: SstReading.optional(),
})

const CdtfaFeed = z.object({
  kind: z.literal(FeedKind.enum.cdtfa),
  /** the CDTFA rates page that links the current SalesTaxRates<M>-<D>-<YY>.xlsx workbook */
  pageUrl: z.url(),
})

/** IDOR's machine-readable rate file: one name for the current edition, always (docs/data-sources.md#illinois). */
const IdorOrdmacheFeed = z.object({
  kind: z.literal(FeedKind.enum['idor-ordmache']),
  url: z.url(),
})

/**
 * On trial: the feed replaces the state's aggregator drop only once it agrees with it on enough
 * ZIPs, or the operator accepts it (pipeline/run/official-trial.ts).
 */
const trial = z.boolean().optional()

/** An official feed found from its publisher's page, on trial or not. */
const pageFeed = <K extends FeedKind>(kind: K) =>
  z.object({
    kind: z.literal(kind),
    /** the publisher's page that links (or, for Florida, answers by postback) the file */
    pageUrl: z.url(),
    trial,
  })

/** The Texas Comptroller's EDI rate file: `taxrates.txt` (current) or `taxrates{YY}{Q}.txt`, linked from its EDI page. */
const TxComptrollerFeed = pageFeed(FeedKind.enum['tx-comptroller']).extend({
  /** the current file's fixed address, used when the page links none */
  fileUrl: z.url(),
})

/** Florida DOR's discretionary sales surtax rates: the workbook PointMatch's "Download All" postback answers. */
const FlSurtaxFeed = pageFeed(FeedKind.enum['fl-dor-surtax'])

/** Arizona DOR's TPT rate table `TPT_RATETABLE_ALL_MMDDYYYY.csv`, linked from its tax rate table page. */
const AzTptFeed = pageFeed(FeedKind.enum['az-dor-tpt'])

/** Virginia Tax's rate workbook, published under one name (sales-tax-rates.xlsx) and carrying no date. */
const VaTaxFeed = z.object({
  kind: z.literal(FeedKind.enum['va-tax']),
  url: z.url(),
  trial,
})

/** Missouri DOR's rate chart, linked by its period from the per-year pages the rate-tables page links. */
const MoDorFeed = pageFeed(FeedKind.enum['mo-dor'])

/** Alabama DOR's local rates CSV (`taxrates_current.csv`, or the `taxrates.csv` history form), linked from its text-file page. */
const AlDorFeed = pageFeed(FeedKind.enum['al-dor'])

/** Colorado DOR's DR 1002 jurisdiction codes and rates workbook, linked from its rates page by the half-year it covers. */
const CoDorFeed = pageFeed(FeedKind.enum['co-dor'])

/** New Mexico TRD's GRT rates and boundaries CSV: the half-year's RGIS dataset linked from the GIS data-download page, its CSV found through services.json. */
const NmGrtFeed = pageFeed(FeedKind.enum['nm-trd-grt'])

/** The Alaska Remote Seller Sales Tax Commission's rate sheet `ARSSTC-Sales-Tax-Rate-Sheet-M-D-YY.xlsx` (or ZIP-wrapped), linked from its tax rates page. */
const AkArsstcFeed = pageFeed(FeedKind.enum['ak-arsstc'])

const AvalaraDropFeed = z.object({
  kind: z.literal(FeedKind.enum['avalara-zip5']),
  /** file name pattern inside the drop directory; the newest edition wins */
  dropPattern: z.string(),
})

/** The state rate and its windows come from the rules table (state-facts.ts). */
const StatutoryFeed = z.object({
  kind: z.literal(FeedKind.enum.statutory),
})

export const Feed = z.discriminatedUnion('kind', [SstFeed, CdtfaFeed, IdorOrdmacheFeed, TxComptrollerFeed, FlSurtaxFeed, AzTptFeed, VaTaxFeed, MoDorFeed, AlDorFeed, CoDorFeed, NmGrtFeed, AkArsstcFeed, AvalaraDropFeed, StatutoryFeed])
export type Feed = z.infer<typeof Feed>
/** Every feed kind of the snapshot contract has a descriptor form, and no descriptor names another. */
const everyFeedKindDescribed: [FeedKind, Feed['kind']] extends [Feed['kind'], FeedKind] ? true : never = true
void everyFeedKindDescribed

/** The refresh class of the data a feed yields: official files are re-fetched, drops are dropped in, statutes stand. */
const KLASS_OF_SOURCE = { official: 'auto', aggregator: 'reload', statute: 'static' } as const satisfies Record<SourceKind, z.infer<typeof Klass>>
export const klassOfFeed = (kind: FeedKind): z.infer<typeof Klass> => KLASS_OF_SOURCE[feedTraits(kind).sourceKind]

export const Anchor = z.object({
  /** the feed the expectation was read from: only that feed's data is held to it */
  feed: FeedKind,
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
  /** the class of the preferred feed (klassOfFeed(feeds[0])) */
  klass: Klass,
  /** in order of preference; the first one that serves is used */
  feeds: z.array(Feed).min(1),
  /** lower and upper legal bounds of a combined rate in 1e-5 units (invariant) */
  combinedBounds: z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]),
  operatorFlag: z.enum(['maintenance', 'manual']).optional(),
  anchors: z.array(Anchor),
})
export type StateDescriptor = z.infer<typeof StateDescriptor>

export const CDTFA_RATES_PAGE = 'https://www.cdtfa.ca.gov/taxes-and-fees/sales-use-tax-rates.htm'
export const TX_EDI_PAGE = 'https://comptroller.texas.gov/taxes/file-pay/edi/sales-tax-rates.php'
export const TX_RATES_FILE = 'https://comptroller.texas.gov/data/edi/sales-tax/taxrates.txt'
export const FL_SURTAX_PAGE = 'https://pointmatch.floridarevenue.com/General/DiscretionarySalesSurtaxRates.aspx/DiscretionarySalesSurtaxRates.aspx'
export const AZ_TPT_PAGE = 'https://azdor.gov/business/transaction-privilege-tax/tax-rate-table'
export const VA_RATES_URL = 'https://www.tax.virginia.gov/sites/default/files/inline-files/sales-tax-rates.xlsx'
export const MO_RATE_TABLES_PAGE = 'https://dor.mo.gov/taxation/business/tax-types/sales-use/rate-tables/'
export const AL_RATES_PAGE = 'https://www.revenue.alabama.gov/sales-use/local-cities-and-counties-tax-rates-text-file/'
export const CO_RATES_PAGE = 'https://tax.colorado.gov/how-to-look-up-sales-use-tax-rates'
export const NM_GRT_PAGE = 'https://www.tax.newmexico.gov/businesses/geographic-information-system-gis/data-download/'
export const AK_RATES_PAGE = 'https://arsstc.org/business-sellers/tax-rates/'
export const IDOR_ORDMACHE_URL = 'https://tax.illinois.gov/content/dam/soi/en/web/tax/research/taxrates/documents/salestaxrates/ordmache-current.txt'

/** A state's descriptor as written in sources/ (defaults, such as an SST feed's boundary index, filled in). */
export function defineState(descriptor: z.input<typeof StateDescriptor>): StateDescriptor {
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
