// Nevada: 6.85% is the published statewide rate, built from several state-mandated levies (2% state, 2.6% school support, 2.25% city-county relief); unchanged.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: STI NV page; OST shipping doc; CBOX baseline note; OST audit (NV Q4-2025 file current)
import { defineState, SST_RATES_URL } from './descriptor.ts'

export default defineState({
  code: "NV",
  name: "Nevada",
  fips: "32",
  klass: "auto",
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL },
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_NV*.csv" },
  ],
  stateRate: 6850,
  combinedBounds: [0, 15850],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: 200,
    combine: "sales_or_transactions",
    measurementPeriod: "previous or current calendar year",
    salesCounted: "retail sales",
    marketplaceSalesCounted: "included",
  },
  sourcing: "destination",
  freight: "exempt_if_separately_stated",
  freightTaxable: false,
  sstStatus: "full_member",
  rulesSource: "state-rules.csv (high confidence): STI NV page; OST shipping doc; CBOX baseline note; OST audit (NV Q4-2025 file current)",
  anchors: [
    { feed: 'avalara-zip5', zip: '89101', expected: '0.08375', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_NV202512.csv row 89101 (CLARK): combined 0.083750 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
