import { defineState } from './descriptor.ts'

export default defineState({
  code: 'FL',
  name: 'Florida',
  fips: '12',
  klass: 'reload',
  feeds: [
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_FL*.csv' },
  ],
  combinedBounds: [0, 15000],
  anchors: [
    { feed: 'avalara-zip5', zip: '33131', expected: '0.07000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_FL202512.csv row 33131 (MIAMI): combined 0.070000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
