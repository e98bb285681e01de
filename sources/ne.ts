// Nebraska: Unchanged. Good Life Districts carry a reduced 2.75% state rate.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: OST sovos-state-summary.tsv; OST shipping doc; TLX; AVIOR-era charts
import { defineState } from './descriptor.ts'

export default defineState({
  code: "NE",
  name: "Nebraska",
  fips: "31",
  klass: "reload",
  feed: { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_NE*.csv" },
  stateRate: 5500,
  combinedBounds: [0, 14500],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: 200,
    combine: "sales_or_transactions",
    measurementPeriod: "previous or current calendar year",
    salesCounted: "retail sales",
    marketplaceSalesCounted: "included (incl. sales through multivendor marketplace platforms)",
  },
  sourcing: "destination",
  freight: "taxable_if_item_taxable",
  freightTaxable: true,
  sstStatus: "full_member",
  rulesSource: "state-rules.csv (high confidence): OST sovos-state-summary.tsv; OST shipping doc; TLX; AVIOR-era charts",
  anchors: [],
})
