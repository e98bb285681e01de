// Iowa: Unchanged.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: Iowa DOR remote-seller page; OST shipping doc; SOVOS IA blog
import { defineState, SST_RATES_URL } from './descriptor.ts'

export default defineState({
  code: "IA",
  name: "Iowa",
  fips: "19",
  klass: "auto",
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL },
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_IA*.csv" },
  ],
  stateRate: 6000,
  combinedBounds: [0, 15000],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: null,
    combine: "sales_only",
    measurementPeriod: "previous or current calendar year",
    salesCounted: "gross revenue incl. exempt, wholesale/resale",
    marketplaceSalesCounted: "included (Iowa DOR)",
  },
  sourcing: "destination",
  freight: "exempt_if_separately_stated",
  freightTaxable: false,
  sstStatus: "full_member",
  rulesSource: "state-rules.csv (high confidence): Iowa DOR remote-seller page; OST shipping doc; SOVOS IA blog",
  anchors: [
    { feed: 'avalara-zip5', zip: '50309', expected: '0.07000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_IA202512.csv row 50309 (DES MOINES): combined 0.070000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
