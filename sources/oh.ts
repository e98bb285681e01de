import { defineState } from './descriptor.ts'

export default defineState({
  code: 'OH',
  name: 'Ohio',
  fips: '39',
  klass: 'reload',
  feed: { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_OH*.csv' },
  combinedBounds: [0, 14750],
  anchors: [
    { zip: '43215', expected: '0.08000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_OH202512.csv row 43215 (GRANDVIEW HEIGHTS): combined 0.080000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
