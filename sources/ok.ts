// Oklahoma: Unchanged.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: STI OK page; OST sovos-state-summary.tsv; OST shipping doc
import { defineState, SST_RATES_URL } from './descriptor.ts'

export default defineState({
  code: "OK",
  name: "Oklahoma",
  fips: "40",
  klass: "auto",
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL },
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_OK*.csv" },
  ],
  stateRate: 4500,
  combinedBounds: [0, 13500],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: null,
    combine: "sales_only",
    measurementPeriod: "preceding or current calendar year",
    salesCounted: "taxable sales of TPP",
    marketplaceSalesCounted: "excluded (where the facilitator collects)",
  },
  sourcing: "destination",
  freight: "exempt_if_separately_stated",
  freightTaxable: false,
  sstStatus: "full_member",
  rulesSource: "state-rules.csv (high confidence): STI OK page; OST sovos-state-summary.tsv; OST shipping doc",
  anchors: [
    { feed: 'avalara-zip5', zip: '73102', expected: '0.08625', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_OK202512.csv row 73102 (OKLAHOMA CITY): combined 0.086250 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
