// Ohio: Unchanged.
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: SOVOS OH blog; AVALARA 2019 OH blog; TLX; CBOX sourcing (TaxJar+Stripe); OST shipping doc
import { defineState, SST_RATES_URL } from './descriptor.ts'

export default defineState({
  code: "OH",
  name: "Ohio",
  fips: "39",
  klass: "auto",
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL },
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_OH*.csv" },
  ],
  stateRate: 5750,
  combinedBounds: [0, 14750],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: 200,
    combine: "sales_or_transactions",
    measurementPeriod: "current or preceding calendar year",
    salesCounted: "gross receipts (incl. exempt sales)",
    marketplaceSalesCounted: "unverified",
  },
  sourcing: "origin",
  freight: "taxable_if_item_taxable",
  freightTaxable: true,
  sstStatus: "full_member",
  rulesSource: "state-rules.csv (medium confidence): SOVOS OH blog; AVALARA 2019 OH blog; TLX; CBOX sourcing (TaxJar+Stripe); OST shipping doc",
  anchors: [
    { feed: 'avalara-zip5', zip: '43215', expected: '0.08000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_OH202512.csv row 43215 (GRANDVIEW HEIGHTS): combined 0.080000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
