// Nebraska: Unchanged. Good Life Districts carry a reduced 2.75% state rate.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: OST sovos-state-summary.tsv; OST shipping doc; TLX; AVIOR-era charts
import { defineState, SST_RATES_URL } from './descriptor.ts'

export default defineState({
  code: "NE",
  name: "Nebraska",
  fips: "31",
  klass: "auto",
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL },
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_NE*.csv" },
  ],
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
  anchors: [
    { feed: 'avalara-zip5', zip: '68102', expected: '0.07000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_NE202512.csv row 68102 (OMAHA): combined 0.070000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
