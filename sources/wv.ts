// West Virginia: Unchanged.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: WV Tax Division remote-seller page; STI WV pages; OST audit 2026-06-26; TLX
import { defineState, SST_RATES_URL } from './descriptor.ts'

export default defineState({
  code: "WV",
  name: "West Virginia",
  fips: "54",
  klass: "auto",
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL },
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_WV*.csv" },
  ],
  stateRate: 6000,
  combinedBounds: [0, 15000],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: 200,
    combine: "sales_or_transactions",
    measurementPeriod: "previous or current calendar year",
    salesCounted: "gross sales",
    marketplaceSalesCounted: "included",
  },
  sourcing: "destination",
  freight: "taxable_if_item_taxable",
  freightTaxable: true,
  sstStatus: "full_member",
  rulesSource: "state-rules.csv (high confidence): WV Tax Division remote-seller page; STI WV pages; OST audit 2026-06-26; TLX",
  anchors: [
    { feed: 'avalara-zip5', zip: '25301', expected: '0.07000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_WV202512.csv row 25301 (CHARLESTON): combined 0.070000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
