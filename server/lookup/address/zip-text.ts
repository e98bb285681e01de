// Reading a ZIP or ZIP+4 as written, including the doubled and tripled +4 suffixes of rule zip4_suffix_repaired.

export type ParsedZip = {
  zip5: string
  zip4: string | null
  /** +4 suffixes after the first, which the repair drops ("98101-1234-5678" → ["5678"]) */
  extraPlus4: string[]
}

export type ZipReading = { ok: true; zip: ParsedZip } | { ok: false; reason: string }

/** Digits and hyphens only: a token in ZIP position that is meant as a ZIP, well formed or not. */
export const isZipShaped = (key: string): boolean => /^[\d-]+$/.test(key) && /\d/.test(key)

/** A 5-digit start, so the token is a ZIP even if its +4 part is malformed. */
export const hasFiveDigitBase = (key: string): boolean => /^\d{5}(-|$)/.test(key)

export function readZip(text: string): ZipReading {
  const zip = text.replace(/[\u2010-\u2015]/g, '-')
  if (/^\d{5}$/.test(zip)) return { ok: true, zip: { zip5: zip, zip4: null, extraPlus4: [] } }
  if (/^\d{9}$/.test(zip)) return { ok: true, zip: { zip5: zip.slice(0, 5), zip4: zip.slice(5), extraPlus4: [] } }
  if (/^\d{5}(-\d{4})+$/.test(zip)) {
    const [zip5, zip4, ...extraPlus4] = zip.split('-')
    return { ok: true, zip: { zip5: zip5!, zip4: zip4!, extraPlus4 } }
  }
  if (hasFiveDigitBase(zip)) {
    return { ok: false, reason: `ZIP "${text}" has a malformed +4 suffix: each suffix after the 5-digit ZIP must be 4 digits` }
  }
  return { ok: false, reason: `ZIP "${text}" is not a 5-digit ZIP or ZIP+4` }
}

export const formatZip = (zip5: string, zip4: string | null): string => (zip4 ? `${zip5}-${zip4}` : zip5)
