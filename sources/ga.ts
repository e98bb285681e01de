// Georgia: Unchanged.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: OST sovos-state-summary.tsv; OST audit 2026-07-06; SOVOS GA nexus blog; AVIOR chart (12/31/25); TLX; nexusrules GA page
import { defineState, SST_RATES_URL } from './descriptor.ts'

export default defineState({
  code: "GA",
  name: "Georgia",
  fips: "13",
  klass: "auto",
  feed: { kind: 'sst', ratesUrl: SST_RATES_URL, rateFile: "GAR2026Q2FEB19.csv" },
  stateRate: 4000,
  combinedBounds: [0, 13000],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: 200,
    combine: "sales_or_transactions",
    measurementPeriod: "previous or current calendar year",
    salesCounted: "retail sales",
    marketplaceSalesCounted: "unverified (one guide says excluded)",
  },
  sourcing: "destination",
  freight: "taxable_if_item_taxable",
  freightTaxable: true,
  sstStatus: "full_member",
  rulesSource: "state-rules.csv (high confidence): OST sovos-state-summary.tsv; OST audit 2026-07-06; SOVOS GA nexus blog; AVIOR chart (12/31/25); TLX; nexusrules GA page",
  anchors: [],
})
