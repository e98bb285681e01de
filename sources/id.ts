import { defineState } from './descriptor.ts'

/**
 * The 23 cities the Tax Commission lists under "Cities with local sales taxes" (publisher-evidence.md
 * B.1, TAP-id), by their Census place (GEO). Their rates and scope (often lodging, liquor and
 * restaurant food only) are not published by the state; the cities have them.
 */
const RESORT_CITIES: [name: string, geoid: string][] = [
  ['Bellevue', '1606220'],
  ['Bonners Ferry', '1609370'],
  ['Cascade', '1613150'],
  ['Crouch', '1619720'],
  ['Donnelly', '1622330'],
  ['Driggs', '1622690'],
  ['Hailey', '1634390'],
  ['Harrison', '1635200'],
  ['Irwin', '1640510'],
  ['Kellogg', '1642580'],
  ['Ketchum', '1643030'],
  ['Lava Hot Springs', '1645820'],
  ['Mackay', '1649240'],
  ['McCall', '1648790'],
  ['Ponderay', '1664450'],
  ['Riggins', '1667870'],
  ['Salmon', '1671650'],
  ['Sandpoint', '1672100'],
  ['Stanley', '1676780'],
  ['Sun Valley', '1678850'],
  ['Swan Valley', '1679120'],
  ['Tetonia', '1680470'],
  ['Victor', '1684250'],
]

export default defineState({
  code: 'ID',
  name: 'Idaho',
  fips: '16',
  klass: 'static',
  feeds: [
    {
      kind: 'statute-table',
      verifiedOn: '2026-12-01',
      unpublished: RESORT_CITIES.map(([name, geoid]) => ({
        place: geoid,
        name,
        tax: 'resort city local option tax (IC 50-1044)',
        exactSource: `the City of ${name}`,
        citation: 'tax.idaho.gov city sales tax list; publisher-evidence.md B.1 (TAP-id), publisher-evidence-remaining.md §7; rules table ID row',
      })),
    },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_ID*.csv' },
  ],
  combinedBounds: [0, 9000],
  anchors: [
    { feed: 'statute-table', zip: '83702', expected: '0.06000', asOf: '2026-12-01', edition: '2026-12-01', source: 'Boise (Ada County): state 6% (IC 63-3619; rules table ID row), no resort city tax' },
    { feed: 'statute-table', zip: '83340', expected: '0.06000', asOf: '2026-12-01', edition: '2026-12-01', source: 'Ketchum (Blaine County, a resort city): state 6%, answered with a warning naming the city, whose own tax is not published by the state (publisher-evidence.md B.1)' },
    { feed: 'avalara-zip5', zip: '83702', expected: '0.06000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_ID202512.csv row 83702 (ADA): combined 0.060000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
