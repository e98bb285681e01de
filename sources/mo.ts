import { defineState } from './descriptor.ts'

export default defineState({
  code: 'MO',
  name: 'Missouri',
  fips: '29',
  klass: 'reload',
  feed: { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_MO*.csv' },
  combinedBounds: [0, 13225],
  anchors: [
    { zip: '63101', expected: '0.11679', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_MO202512.csv row 63101 (SAINT LOUIS CONVENTION CENTER HOTEL 3 COMMUNITY IMPROVEMENT DISTRICT SL): combined 0.116790 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
