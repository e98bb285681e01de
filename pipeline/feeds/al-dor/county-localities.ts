// What an Alabama county locality (a 7xxx code) covers, read from its name (publisher-evidence E4):
// a county is not one row. Its localities come as the plain `<X> COUNTY`, `<X> COUNTY COUNTY-WIDE
// TAX`, `<X> COUNTY UNINCORP AREAS` (outside corporate limits), `<X> COUNTY CL` (inside corporate
// limits), `<X> COUNTY PJ` (police jurisdictions), `PIKE COUNTY CL TROY` / `PIKE COUNTY EXC CL TROY`
// (inside or outside one city's corporate limits), `CHILTON COUNTY CL 4 CITIES` (some cities, not
// named), `JEFFERSON COUNTY EDUCATION` and `UNABATED <X> COUNTY`; Madison has only its COUNTY-WIDE
// TAX row, Morgan only UNINCORP AREAS and CL rows, Pike only the two Troy rows.

/**
 * Where a county locality's tax applies, by the three zones DOR rates (unincorporated land, corporate
 * limits, police jurisdictions):
 *   county        the whole county (the plain row, COUNTY-WIDE TAX)
 *   outside       land outside every city's corporate limits (UNINCORP AREAS)
 *   inside        inside every city's corporate limits (CL)
 *   city          inside the corporate limits of the one city named (CL TROY)
 *   except-city   the whole county but the corporate limits of the one city named (EXC CL TROY)
 *   not-placed    an area the Census geography does not give, or the name does not say: police
 *                 jurisdictions (PJ), some unnamed cities (CL 4 CITIES), EDUCATION, UNABATED, and
 *                 any qualifier not listed here
 */
export type CountyZone =
  | { kind: 'county' | 'outside' | 'inside' }
  | { kind: 'city' | 'except-city'; city: string }
  | { kind: 'not-placed'; why: string }

export type CountyLocality = { county: string; qualifier: string; zone: CountyZone }

const UNABATED = /^UNABATED\s+(.+?)\s+COUNTY$/i
const NAMED = /^(.+?)\s+COUNTY(?:\s+(.*))?$/i

/** A county locality's county name and zone; null when its name names no county. */
export function countyLocality(name: string): CountyLocality | null {
  const unabated = UNABATED.exec(name.trim())
  if (unabated) return { county: unabated[1]!, qualifier: 'UNABATED', zone: { kind: 'not-placed', why: 'an unabated county tax: where it applies (abated projects) the file does not say' } }
  const named = NAMED.exec(name.trim())
  if (!named) return null
  const qualifier = (named[2] ?? '').replace(/\s+/g, ' ').trim().toUpperCase()
  return { county: named[1]!, qualifier, zone: zoneOf(qualifier) }
}

function zoneOf(qualifier: string): CountyZone {
  if (qualifier === '' || qualifier === 'COUNTY-WIDE TAX' || qualifier === 'COUNTYWIDE TAX') return { kind: 'county' }
  if (qualifier === 'UNINCORP AREAS' || qualifier === 'UNINCORPORATED AREAS') return { kind: 'outside' }
  if (qualifier === 'CL') return { kind: 'inside' }
  if (qualifier === 'PJ') return { kind: 'not-placed', why: 'police jurisdictions, just outside city limits: an area the Census places do not give' }
  const except = /^EXC(?:EPT)? CL (\D.*)$/.exec(qualifier)
  if (except) return { kind: 'except-city', city: except[1]! }
  const inside = /^CL (\D.*)$/.exec(qualifier)
  if (inside) return { kind: 'city', city: inside[1]! }
  if (/^CL \d+ CITIES$/.test(qualifier)) return { kind: 'not-placed', why: 'inside the corporate limits of cities the file does not name' }
  return { kind: 'not-placed', why: `"${qualifier}": where a county locality so named applies the file does not say` }
}
