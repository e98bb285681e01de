// Illinois: General rate unchanged. State 1% tax on groceries repealed 2026-01-01 (localities may impose their own 1%).
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: OST sovos-state-summary.tsv; STI IL 2026 page; SOVOS IL update; TaxCloud IL note; STI/Fonoa IL sourcing 2025; AVALARA Jan-2026 blog; CBOX sourcing note
import { defineState } from './descriptor.ts'

export default defineState({
  code: "IL",
  name: "Illinois",
  fips: "17",
  klass: "auto",
  feeds: [
    { kind: 'idor-ordmache', url: 'https://tax.illinois.gov/content/dam/soi/en/web/tax/research/taxrates/documents/salestaxrates/ordmache-current.txt' },
    { kind: 'avalara-zip5', dropPattern: "TAXRATES_ZIP5_IL*.csv" },
  ],
  stateRate: 6250,
  combinedBounds: [0, 15250],
  hasSalesTax: true,
  localTaxes: "yes",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: null,
    combine: "sales_only",
    measurementPeriod: "preceding 12 months, re-tested at each quarter end",
    salesCounted: "gross receipts from TPP sales to IL purchasers (excl. resale and registrable vehicles)",
    marketplaceSalesCounted: "excluded (verify against 86 Ill. Adm. Code 131.120)",
  },
  sourcing: "mixed",
  freight: "exempt_if_separately_stated",
  freightTaxable: false,
  sstStatus: "not_member",
  rulesSource: "state-rules.csv (high confidence): OST sovos-state-summary.tsv; STI IL 2026 page; SOVOS IL update; TaxCloud IL note; STI/Fonoa IL sourcing 2025; AVALARA Jan-2026 blog; CBOX sourcing note",
  anchors: [
    { feed: 'idor-ordmache', zip: '60601', expected: '0.10250', asOf: '2026-01-01', edition: '2026-01-01', source: 'ordmache-current.txt record 016-0001-1 CHICAGO (COOK): current period from 2016-01-01, general merchandise rate 10.250% (state share included); HUD puts 60601 wholly in Cook County, USPS city CHICAGO' },
    { feed: 'avalara-zip5', zip: '60601', expected: '0.10250', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_IL202512.csv row 60601 (CHICAGO METRO PIER AND EXPOSITION AUTHORITY DISTRICT): combined 0.102500 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
