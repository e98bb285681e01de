// District of Columbia: Rate shown is the one scheduled for late 2026: 6.0% through 2026-09-30, 7.0% from 2026-10-01. The planned 6.5% step (2025-10-01) was repealed by the FY2026 Budget Support Act. Higher category rates (e.g., 10% restaurant meals, 10.25% off-premises alcohol, 18% parking).
// Rules (rate, nexus, sourcing, freight) from shared rules table state-rules.csv; its sources: OST district_of_columbia.py + audit 2026-07-04; KPMG TWIST 2025-12-15; Thomson Reuters FY2026 BSA note; DC OTR remote-seller FAQ; STI DC page; TLX
import { defineState } from './descriptor.ts'

export default defineState({
  code: "DC",
  name: "District of Columbia",
  fips: "11",
  klass: "static",
  feeds: [
    { kind: 'statutory', citation: "state rate 7.000% per rules table (OST district_of_columbia.py + audit 2026-07-04)" },
  ],
  stateRate: 7000,
  combinedBounds: [7000, 7000],
  hasSalesTax: true,
  localTaxes: "no",
  nexus: {
    dollarThreshold: 100000,
    transactionThreshold: 200,
    combine: "sales_or_transactions",
    measurementPeriod: "previous or current calendar year",
    salesCounted: "retail sales delivered into DC",
    marketplaceSalesCounted: "included",
  },
  sourcing: "n/a",
  freight: "taxable_if_item_taxable",
  freightTaxable: true,
  sstStatus: "not_member",
  rulesSource: "state-rules.csv (medium confidence): OST district_of_columbia.py + audit 2026-07-04; KPMG TWIST 2025-12-15; Thomson Reuters FY2026 BSA note; DC OTR remote-seller FAQ; STI DC page; TLX",
  anchors: [
    { feed: 'statutory', zip: '20001', expected: '0.07000', asOf: '2026-12-01', edition: 'statutory', source: 'statutory state rate 7.000% (state-rules.csv, rules in force 2026-12-01); no local sales taxes' },
  ],
})
