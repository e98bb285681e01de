// South Dakota: 4.2% since 2023-07-01 (HB 1137); returns to 4.5% on 2027-07-01 unless extended.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: SD SB 30 (2023) enrolled text; AVALARA 2023 SD rate blog; OST audit 2026-06-29
import { defineState, SST_RATES_URL } from './descriptor.ts'

export default defineState({
  code: "SD",
  name: "South Dakota",
  fips: "46",
  klass: "auto",
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL },
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_SD*.csv" },
  ],
  stateRate: 4200,
  combinedBounds: [0, 13200],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: null,
    combine: "sales_only",
    measurementPeriod: "previous or current calendar year",
    salesCounted: "gross revenue",
    marketplaceSalesCounted: "unverified",
  },
  sourcing: "destination",
  freight: "taxable_if_item_taxable",
  freightTaxable: true,
  sstStatus: "full_member",
  rulesSource: "state-rules.csv (high confidence): SD SB 30 (2023) enrolled text; AVALARA 2023 SD rate blog; OST audit 2026-06-29",
  anchors: [
    { feed: 'avalara-zip5', zip: '57104', expected: '0.06200', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_SD202512.csv row 57104 (SIOUX FALLS): combined 0.062000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
