// Vermont: Unchanged.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: VT Dept. of Taxes remote-vendor page (32 V.S.A. 9701(9)(F)); STI VT marketplace page; SOVOS VT blog
import { defineState, SST_RATES_URL } from './descriptor.ts'

export default defineState({
  code: "VT",
  name: "Vermont",
  fips: "50",
  klass: "auto",
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL },
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_VT*.csv" },
  ],
  stateRate: 6000,
  combinedBounds: [0, 15000],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: 200,
    combine: "sales_or_transactions",
    measurementPeriod: "any 12-month period preceding the monthly period (reviewed quarterly)",
    salesCounted: "gross sales",
    marketplaceSalesCounted: "included (when the seller also sells directly)",
  },
  sourcing: "destination",
  freight: "taxable_if_item_taxable",
  freightTaxable: true,
  sstStatus: "full_member",
  rulesSource: "state-rules.csv (high confidence): VT Dept. of Taxes remote-vendor page (32 V.S.A. 9701(9)(F)); STI VT marketplace page; SOVOS VT blog",
  anchors: [
    { feed: 'avalara-zip5', zip: '05401', expected: '0.07000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_VT202512.csv row 05401 (BURLINGTON): combined 0.070000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
