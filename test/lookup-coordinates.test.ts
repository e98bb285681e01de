// Coordinates mode at the shore, through a real server on the all-states snapshot: ZIP centroids
// the simplified county outlines cut off answer their nearest ZIP with low confidence, the open
// sea and water far from a state's ZIPs stay 404, a centroid inside another state's county stays
// 400; and the nearest-centroid grid search answers exactly what a scan of the list does.
import { describe, expect, it } from 'vitest'
import type { ZipEntry } from '../snapshot-contract/rate-index.ts'
import { ErrorBody } from '../server/base/errors.ts'
import { SHORE_REACH_KM } from '../server/lookup/coordinate-location.ts'
import { nearestZip, zipPointsInCounty, type CandidateMatch } from '../server/lookup/nearest-zip.ts'
import { factsOf, type ZipPoint } from '../server/lookup/snapshot-facts.ts'
import { SimpleLookupBody } from '../server/lookup/tax-response.ts'
import { servedLookups } from './support/lookup-server.ts'

const SHORE_STATES = ['CA', 'IL', 'NY', 'TX', 'WA']

const served = servedLookups()

const entryOf = (zip: string, state: string): ZipEntry => served.snapshot.rates.lookupZip(zip).find((entry) => entry.state === state)!
const inNoCounty = (lat: number, lng: number) => !served.snapshot.shapes.at(lng, lat).some((hit) => hit.kind === 'county')
const countiesOf = (entry: ZipEntry) => new Set(entry.candidates.map((c) => c.county?.fips))
const warningCodes = (warnings: readonly unknown[]) => warnings.flatMap((w) => (typeof w === 'object' && w !== null ? [(w as { code: string }).code] : []))
const nearestZipMessage = (warnings: readonly unknown[]) =>
  (warnings.find((w) => typeof w === 'object' && w !== null && (w as { code: string }).code === 'nearest_zip') as { message: string } | undefined)?.message

async function answered(path: string) {
  const response = await served.lookup.get(path)
  expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(200)
  return SimpleLookupBody.parse(response.body)
}

async function refused(path: string, status: number, code: string) {
  const response = await served.lookup.get(path)
  expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(status)
  const { error } = ErrorBody.parse(response.body)
  expect(error.code).toBe(code)
  return response.body.error as Record<string, any>
}

describe('ZIP centroids outside the county outlines', () => {
  it.each([
    ['60611', 'IL'],
    ['94130', 'CA'],
    ['78402', 'TX'],
  ])('%s %s answers its own ZIP or a neighbour of its county, low, with the nearest_zip warning', async (zip, state) => {
    const expected = entryOf(zip, state)
    expect(inNoCounty(expected.lat!, expected.lng!), `${zip}'s centroid is in a county outline: the test no longer probes the shore`).toBe(true)
    const { rate, meta } = await answered(`/v1/tax/${state.toLowerCase()}?lat=${expected.lat}&lng=${expected.lng}`)
    expect(rate.state).toBe(state)
    const neighbour = entryOf(rate.zip, state)
    expect(rate.zip === zip || [...countiesOf(neighbour)].some((fips) => countiesOf(expected).has(fips)), `${zip} answered ${rate.zip}`).toBe(true)
    expect(meta).toMatchObject({ resolved_via: 'coordinates', confidence: 'low' })
    expect(nearestZipMessage(meta.warnings)).toMatch(/outside the county outlines/)
  })

  it('every such centroid of CA, IL, NY, TX and WA is answered for its state', async () => {
    const cut: ZipEntry[] = []
    for (const state of SHORE_STATES) {
      for (const i of served.snapshot.rates.entriesOfState(state)) {
        const entry = served.snapshot.rates.entryAt(i)
        if (entry.lat !== null && entry.lng !== null && inNoCounty(entry.lat, entry.lng)) cut.push(entry)
      }
    }
    expect(cut.map((entry) => entry.zip)).toEqual(expect.arrayContaining(['60611', '94130', '78402']))
    expect(cut.length, 'a handful of shore ZIPs, not a broken outline layer').toBeLessThan(50)
    for (const entry of cut) {
      const { rate, meta } = await answered(`/v1/tax/${entry.state.toLowerCase()}?lat=${entry.lat}&lng=${entry.lng}`)
      expect(rate.state).toBe(entry.state)
      expect(meta.confidence).toBe('low')
      expect(warningCodes(meta.warnings)).toContain('nearest_zip')
    }
  })

  it('a point a kilometre off the Chicago shore answers a ZIP within reach; a placeholder path serves IL and says so', async () => {
    const shore = entryOf('60611', 'IL')
    const lng = shore.lng! + 0.012 // ≈ 1 km east, in Lake Michigan
    expect(inNoCounty(shore.lat!, lng)).toBe(true)
    const { rate, meta } = await answered(`/v1/tax/il?lat=${shore.lat}&lng=${lng}`)
    expect(rate.state).toBe('IL')
    const distanceKm = Number(/(\d+\.\d) km away/.exec(nearestZipMessage(meta.warnings) ?? '')?.[1])
    expect(distanceKm).toBeLessThanOrEqual(SHORE_REACH_KM)
    const placeholder = await answered(`/v1/tax/-?lat=${shore.lat}&lng=${lng}`)
    expect(placeholder.rate).toMatchObject({ state: 'IL', zip: rate.zip })
    expect(warningCodes(placeholder.meta.warnings)).toEqual(expect.arrayContaining(['state_from_input', 'nearest_zip']))
  })
})

describe('points that stay errors', () => {
  it('the open sea is a 404, under a state path and under a placeholder', async () => {
    for (const path of ['/v1/tax/wa?lat=40&lng=-140', '/v1/tax/-?lat=40&lng=-140', '/v1/tax/ca?lat=33.5&lng=-125']) {
      const error = await refused(path, 404, 'NOT_FOUND')
      expect(error.message).toMatch(new RegExp(`No US county contains the point.*within ${SHORE_REACH_KM} km`))
    }
  })

  it('mid Lake Michigan, farther than the reach from every IL centroid, is a 404', async () => {
    const [lat, lng] = [42.2, -87.3]
    expect(inNoCounty(lat, lng)).toBe(true)
    expect(nearestZip(factsOf(served.snapshot).zipPoints('IL'), lat, lng, () => true)!.distanceKm).toBeGreaterThan(SHORE_REACH_KM)
    await refused(`/v1/tax/il?lat=${lat}&lng=${lng}`, 404, 'NOT_FOUND')
  })

  it('79837 Dell City TX, whose centroid lies north of 32°N in an NM county, stays a 400 naming NM', async () => {
    const dellCity = entryOf('79837', 'TX')
    expect(dellCity.lat!).toBeGreaterThan(32)
    const error = await refused(`/v1/tax/tx?lat=${dellCity.lat}&lng=${dellCity.lng}`, 400, 'INVALID_INPUT')
    expect(error.point_state).toBe('NM')
  })
})

describe('nearest ZIP centroid search', () => {
  /** The plain scan the grid replaces: first point at the least distance holding a match. */
  function scan(points: readonly ZipPoint[], lat: number, lng: number, match: CandidateMatch) {
    const cosLat = Math.cos((lat * Math.PI) / 180)
    let best: { point: ZipPoint; index: number } | null = null
    let bestDistance = Infinity
    for (const point of points) {
      const distance = (point.lat - lat) ** 2 + ((point.lng - lng) * cosLat) ** 2
      if (distance >= bestDistance) continue
      const index = point.candidates.findIndex(match)
      if (index < 0) continue
      best = { point, index }
      bestDistance = distance
    }
    return best
  }

  it('answers exactly the scan, for any candidate, a county\'s candidates and a county with none', () => {
    let seed = 7
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
    let compared = 0
    for (const state of ['AK', 'CA', 'IL', 'NY', 'TX', 'WA', 'RI', 'DC']) {
      const points = factsOf(served.snapshot).zipPoints(state)
      const lats = points.map((p) => p.lat), lngs = points.map((p) => p.lng)
      const [south, north, west, east] = [Math.min(...lats) - 1, Math.max(...lats) + 1, Math.min(...lngs) - 1, Math.max(...lngs) + 1]
      for (let k = 0; k < 300; k++) {
        const onCentroid = k % 3 === 0
        const lat = onCentroid ? points[k % points.length]!.lat : south + (north - south) * next()
        const lng = onCentroid ? points[k % points.length]!.lng : west + (east - west) * next()
        const county = points[Math.floor(next() * points.length)]!.candidates[0]!.county
        const matches: CandidateMatch[] = [() => true, (c) => c.county === county, (c) => c.county === 'none']
        for (const match of matches) {
          const expected = scan(points, lat, lng, match)
          const found = nearestZip(points, lat, lng, match)
          expect(found && { point: found.point, index: found.index }, `${state} (${lat}, ${lng})`).toEqual(expected)
          if (county) expect(nearestZip(zipPointsInCounty(points, county), lat, lng, match)?.point ?? null).toBe(scan(points, lat, lng, (c) => c.county === county && match(c))?.point ?? null)
          compared++
        }
      }
    }
    expect(compared).toBe(8 * 300 * 3)
  })

  it('returns nothing beyond the reach asked for', () => {
    const points = factsOf(served.snapshot).zipPoints('WA')
    const { lat, lng } = points[0]!
    expect(nearestZip(points, lat, lng, () => true, 1)!.distanceKm).toBe(0)
    expect(nearestZip(points, 40, -140, () => true, SHORE_REACH_KM)).toBeNull()
    expect(nearestZip(points, 40, -140, () => true)!.distanceKm).toBeGreaterThan(500)
  })
})
