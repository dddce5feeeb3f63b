export interface LatLng {
  lat: number;
  lng: number;
}

const earthRadiusM = 6_371_000;
const rad = (deg: number) => (deg * Math.PI) / 180;

/**
 * A degree of latitude along a meridian: no two points lie closer than their difference in
 * latitude times this (the great-circle distance is never shorter).
 */
export const metresPerDegreeLatitude = (earthRadiusM * Math.PI) / 180;

/** Great-circle distance in metres. */
export function distanceMeters(a: LatLng, b: LatLng): number {
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * earthRadiusM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A point `distanceKm` away from `origin` in direction `bearing` (radians), flat-earth approximation. */
export function offset(origin: LatLng, distanceKm: number, bearing: number): LatLng {
  const dLat = (distanceKm * Math.cos(bearing)) / 111.32;
  const dLng = (distanceKm * Math.sin(bearing)) / (111.32 * Math.cos(rad(origin.lat)));
  return { lat: round6(origin.lat + dLat), lng: round6(origin.lng + dLng) };
}

export const round6 = (value: number) => Math.round(value * 1e6) / 1e6;
