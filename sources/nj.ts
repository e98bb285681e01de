// New Jersey: Unchanged.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: NJ Division of Taxation remote-seller page/FAQ; STI NJ page; vatcalc + fastdemocracy on S3604; TLX; AVIOR chart
import { defineState, SST_RATES_URL } from './descriptor.ts'

export default defineState({
  code: "NJ",
  name: "New Jersey",
  fips: "34",
  klass: "auto",
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL },
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_NJ*.csv" },
  ],
  stateRate: 6625,
  combinedBounds: [0, 9625],
  hasSalesTax: true,
  localTaxes: "limited",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: 200,
    combine: "sales_or_transactions",
    measurementPeriod: "current or prior calendar year",
    salesCounted: "gross revenue (taxable + nontaxable retail)",
    marketplaceSalesCounted: "included",
  },
  sourcing: "destination",
  freight: "taxable_if_item_taxable",
  freightTaxable: true,
  sstStatus: "full_member",
  rulesSource: "state-rules.csv (high confidence): NJ Division of Taxation remote-seller page/FAQ; STI NJ page; vatcalc + fastdemocracy on S3604; TLX; AVIOR chart",
  anchors: [
    { feed: 'avalara-zip5', zip: '07102', expected: '0.06625', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_NJ202512.csv row 07102 (IRVINGTON): combined 0.066250 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
