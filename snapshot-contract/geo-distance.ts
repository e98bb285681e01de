// Distances between lat/lng points, for the pipeline's and the server's nearness tests alike.

/** Kilometres per degree of latitude (mean Earth radius 6371 km); distances are equirectangular. */
export const KM_PER_DEGREE = 111.195

/** Equirectangular distance in km between two points: exact enough at the scale of neighbouring ZIPs. */
export function distanceKm(lat: number, lng: number, otherLat: number, otherLng: number): number {
  const cosLat = Math.cos((lat * Math.PI) / 180)
  return Math.sqrt((otherLat - lat) ** 2 + ((otherLng - lng) * cosLat) ** 2) * KM_PER_DEGREE
}
