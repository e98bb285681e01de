// How a file or folder read from a local directory (TAXATLAS_MIRROR or TAXATLAS_DROPS) is named in
// what a refresh records: by its place inside that directory, never by the machine's path. The
// manifest and freshness records are public (GET /v1/freshness, lookup warnings, release assets),
// and a deployment must not show its file layout.
import path from 'node:path'

/** `local-mirror:sst/GAR2026Q2FEB19.csv`, `manual-drops:avalara-zip5/202512/TAXRATES_ZIP5_WA202512.csv` */
export const localFileUrl = (root: 'local-mirror' | 'manual-drops', relative: string): string => `${root}:${relative.split(path.sep).join('/')}`

/** A feed's folder in a mirror directory, beside the publisher page it stands for: `https://…/Rates/ (local mirror sst/)`. */
export const localMirrorFolder = (feed: string, indexUrl?: string): string => `${indexUrl ? `${indexUrl} ` : ''}(local mirror ${feed}/)`
