import { defineState } from './descriptor.ts'

export default defineState({
  code: 'PR',
  name: 'Puerto Rico',
  fips: '72',
  klass: 'reload',
  feeds: [
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_PR*.csv' },
  ],
  combinedBounds: [0, 20500],
  anchors: [
    { feed: 'avalara-zip5', zip: '00901', expected: '0.11500', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_PR202512.csv row 00901 (SAN JUAN CO): combined 0.115000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
