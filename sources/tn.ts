import { defineState, SST_RATES_URL, statutoryFloor } from './descriptor.ts'
import { sstReading } from './sst-reading.ts'

export default defineState({
  code: 'TN',
  name: 'Tennessee',
  fips: '47',
  klass: 'auto',
  feeds: [
    {
      kind: 'sst',
      ratesUrl: SST_RATES_URL,
      reading: sstReading(
        [
          { type: '63', read: 'excluded', why: 'county-equivalent overlays already folded into the city rates: adding them breaks the 2.75% local cap' },
          { type: '79', read: 'district', why: 'transit surcharges (Davidson County 0.5% from 2025-02-01), which add to the local rate' },
        ],
        { localCap: 2750, countyWithinCities: 'folded' },
      ),
    },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_TN*.csv' },
    statutoryFloor('Tennessee', 'Tennessee DOR + SST quarterly files'),
  ],
  combinedBounds: [0, 16000],
  anchors: [
    { feed: 'avalara-zip5', zip: '37203', expected: '0.09250', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_TN202512.csv row 37203 (NASHVILLE): combined 0.092500 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
