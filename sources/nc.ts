// North Carolina: Unchanged.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: NCDOR remote-sales page; AVALARA 2024-07 NC note; TaxValet NC note; OST audit 2026-07-14
import { defineState, SST_RATES_URL } from './descriptor.ts'

export default defineState({
  code: "NC",
  name: "North Carolina",
  fips: "37",
  klass: "auto",
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL },
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_NC*.csv" },
  ],
  stateRate: 4750,
  combinedBounds: [0, 13750],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: null,
    combine: "sales_only",
    measurementPeriod: "previous or current calendar year",
    salesCounted: "gross sales",
    marketplaceSalesCounted: "included (NCDOR)",
  },
  sourcing: "destination",
  freight: "taxable_if_item_taxable",
  freightTaxable: true,
  sstStatus: "full_member",
  rulesSource: "state-rules.csv (high confidence): NCDOR remote-sales page; AVALARA 2024-07 NC note; TaxValet NC note; OST audit 2026-07-14",
  anchors: [
    { feed: 'avalara-zip5', zip: '27601', expected: '0.07250', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_NC202512.csv row 27601 (RALEIGH): combined 0.072500 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
