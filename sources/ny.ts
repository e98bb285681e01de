import { defineState, NY_LOCAL_RATES_PAGE, statutoryFloor } from './descriptor.ts'

const PUB718 = 'Publication 718 (2/25), effective 2025-03-01 (publisher-evidence-remaining.md §1.6, U-63204094215, DG-tny)'

export default defineState({
  code: 'NY',
  name: 'New York',
  fips: '36',
  klass: 'auto',
  feeds: [
    { kind: 'ny-dtf-pub718', pageUrl: NY_LOCAL_RATES_PAGE },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_NY*.csv' },
    statutoryFloor('New York', 'NY DTF Publication 718 + jurisdiction/rate lookup'),
  ],
  combinedBounds: [0, 13000],
  anchors: [
    { feed: 'ny-dtf-pub718', zip: '10001', expected: '0.08875', asOf: '2025-03-01', edition: '2025-03-01', source: `*New York City 8⅞ 8081 (Manhattan, county 36061): state 4% + city 4.5% + MCTD 0.375%; ${PUB718}` },
    { feed: 'ny-dtf-pub718', zip: '11201', expected: '0.08875', asOf: '2025-03-01', edition: '2025-03-01', source: `*New York City 8⅞ 8081 (Brooklyn, county 36047): one row for the five counties; ${PUB718}` },
    { feed: 'ny-dtf-pub718', zip: '11901', expected: '0.08750', asOf: '2025-03-01', edition: '2025-03-01', source: `*Suffolk 8¾ 4711 (Riverhead); ${PUB718}` },
    { feed: 'ny-dtf-pub718', zip: '14424', expected: '0.07500', asOf: '2025-03-01', edition: '2025-03-01', source: `Ontario 7½ 3211 (Canandaigua); ${PUB718}` },
    { feed: 'ny-dtf-pub718', zip: '10701', expected: '0.08875', asOf: '2025-03-01', edition: '2025-03-01', source: `*Yonkers (city) 8⅞ 6511 under *Westchester – except; ${PUB718}` },
    { feed: 'ny-dtf-pub718', zip: '12866', expected: '0.07000', asOf: '2025-03-01', edition: '2025-03-01', source: `Saratoga – except 7 4111, Saratoga Springs (city) 7 4131; ${PUB718}` },
    { feed: 'avalara-zip5', zip: '10001', expected: '0.08875', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_NY202512.csv row 10001 (NEW YORK CITY): combined 0.088750 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
