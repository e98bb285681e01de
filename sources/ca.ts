import { defineState, CDTFA_RATES_PAGE, statutoryFloor } from './descriptor.ts'

export default defineState({
  code: 'CA',
  name: 'California',
  fips: '06',
  klass: 'auto',
  feeds: [
    { kind: 'cdtfa', pageUrl: CDTFA_RATES_PAGE },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_CA*.csv' },
    statutoryFloor('California', 'CDTFA (rate list, CDTFA-105 district list, address lookup/GIS)'),
  ],
  combinedBounds: [0, 16250],
  anchors: [
    { feed: 'cdtfa', zip: '95814', expected: '0.08750', asOf: '2026-01-01', edition: '2026-01-01', source: 'SalesTaxRates1-1-26.xlsx row "Sacramento, 0.0875, Sacramento, City"; HUD puts 95814 wholly in Sacramento County, USPS city SACRAMENTO' },
    { feed: 'cdtfa', zip: '95608', expected: '0.07750', asOf: '2026-01-01', edition: '2026-01-01', source: 'SalesTaxRates1-1-26.xlsx row "Sacramento County, 0.0775, Sacramento, County" (Carmichael is unincorporated)' },
    { feed: 'cdtfa', zip: '90012', expected: '0.09750', asOf: '2026-01-01', edition: '2026-01-01', source: 'SalesTaxRates1-1-26.xlsx row "Los Angeles, 0.0975, Los Angeles, City"' },
  ],
})
