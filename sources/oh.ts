import { defineState, SST_RATES_URL, statutoryFloor } from './descriptor.ts'
import { sstReading } from './sst-reading.ts'

export default defineState({
  code: 'OH',
  name: 'Ohio',
  fips: '39',
  klass: 'auto',
  feeds: [
    {
      kind: 'sst',
      ratesUrl: SST_RATES_URL,
      reading: sstReading([{ type: '63', read: 'district', why: "unnamed transit-authority surcharges that add to a county's rate; not bound to ZIPs without the boundary file" }]),
    },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_OH*.csv' },
    statutoryFloor('Ohio', "Ohio Dept. of Taxation ('The Finder') + SST quarterly files"),
  ],
  combinedBounds: [0, 14750],
  anchors: [
    { feed: 'avalara-zip5', zip: '43215', expected: '0.08000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_OH202512.csv row 43215 (GRANDVIEW HEIGHTS): combined 0.080000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
