import { defineState, SST_RATES_URL, statutoryFloor } from './descriptor.ts'
import { sstReading } from './sst-reading.ts'

export default defineState({
  code: 'WA',
  name: 'Washington',
  fips: '53',
  klass: 'auto',
  feeds: [
    {
      kind: 'sst',
      ratesUrl: SST_RATES_URL,
      reading: sstReading([
        { type: '00', codes: '0(?:79|81|83|85|87)', read: 'district', why: 'county-typed codes 079-087 are no Washington county (its 39 counties end at 077): special areas, never a county layer' },
        { type: '63', codes: 'L\\d+', read: 'district', why: 'DOR location codes (L1726 = Seattle), special areas not bound to ZIPs without the boundary file' },
      ]),
    },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_WA*.csv' },
    statutoryFloor('Washington', 'Washington DOR (rate lookup, GIS, quarterly files) + SST files'),
  ],
  combinedBounds: [0, 15500],
  anchors: [
    { feed: 'avalara-zip5', zip: '98101', expected: '0.10350', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_WA202512.csv row 98101 (SEATTLE): combined 0.103500 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
