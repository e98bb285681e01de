// Wyoming: Unchanged.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: W.S. 39-15-501 (as amended 2024); STI WY page; AVALARA 2024-03 IN/WY blog; OST audit 2026-06-26
import { defineState, SST_RATES_URL } from './descriptor.ts'

export default defineState({
  code: "WY",
  name: "Wyoming",
  fips: "56",
  klass: "auto",
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL },
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_WY*.csv" },
  ],
  stateRate: 4000,
  combinedBounds: [0, 13000],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: null,
    combine: "sales_only",
    measurementPeriod: "current or immediately preceding calendar year",
    salesCounted: "gross revenue (taxable, exempt, wholesale)",
    marketplaceSalesCounted: "excluded",
  },
  sourcing: "destination",
  freight: "exempt_if_separately_stated",
  freightTaxable: false,
  sstStatus: "full_member",
  rulesSource: "state-rules.csv (high confidence): W.S. 39-15-501 (as amended 2024); STI WY page; AVALARA 2024-03 IN/WY blog; OST audit 2026-06-26",
  anchors: [
    { feed: 'avalara-zip5', zip: '82001', expected: '0.06000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_WY202512.csv row 82001 (CHEYENNE): combined 0.060000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
