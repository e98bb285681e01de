import { defineState } from './descriptor.ts'

export default defineState({
  code: 'HI',
  name: 'Hawaii',
  fips: '15',
  klass: 'reload',
  feeds: [
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_HI*.csv' },
  ],
  combinedBounds: [0, 13000],
  anchors: [
    { feed: 'avalara-zip5', zip: '96813', expected: '0.04500', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_HI202512.csv row 96813 (HONOLULU): combined 0.045000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
