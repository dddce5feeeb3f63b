/**
 * The sandbox's map: postal code ranges of real towns in the Netherlands, Belgium and Germany with
 * their approximate centre. The geocoder places any postal code of these countries in the region
 * whose range holds it (or the numerically nearest one), so coordinates are plausible for the code.
 */
export type Language = 'nl' | 'fr' | 'de';

export interface Region {
  countryCode: 'NL' | 'BE' | 'DE';
  /** First and last numeric part of the postal codes of this town (inclusive). */
  from: number;
  to: number;
  city: string;
  state: string;
  lat: number;
  lng: number;
  /** How far from the centre its addresses spread, in kilometres. */
  radiusKm: number;
  language: Language;
}

type Row = [from: number, to: number, city: string, state: string, lat: number, lng: number, radiusKm: number];

const nl: Row[] = [
  [1000, 1109, 'Amsterdam', 'Noord-Holland', 52.3676, 4.9041, 6],
  [1110, 1119, 'Diemen', 'Noord-Holland', 52.339, 4.962, 2],
  [1180, 1189, 'Amstelveen', 'Noord-Holland', 52.303, 4.862, 3],
  [1200, 1223, 'Hilversum', 'Noord-Holland', 52.223, 5.176, 3],
  [1300, 1349, 'Almere', 'Flevoland', 52.371, 5.222, 5],
  [1400, 1409, 'Bussum', 'Noord-Holland', 52.273, 5.161, 2],
  [1500, 1509, 'Zaandam', 'Noord-Holland', 52.438, 4.826, 3],
  [1620, 1629, 'Hoorn', 'Noord-Holland', 52.642, 5.06, 3],
  [1700, 1709, 'Heerhugowaard', 'Noord-Holland', 52.664, 4.83, 2],
  [1780, 1789, 'Den Helder', 'Noord-Holland', 52.959, 4.76, 3],
  [1800, 1829, 'Alkmaar', 'Noord-Holland', 52.632, 4.753, 3],
  [1940, 1949, 'Beverwijk', 'Noord-Holland', 52.486, 4.657, 2],
  [2000, 2037, 'Haarlem', 'Noord-Holland', 52.387, 4.646, 3],
  [2100, 2106, 'Heemstede', 'Noord-Holland', 52.355, 4.62, 2],
  [2130, 2159, 'Hoofddorp', 'Noord-Holland', 52.303, 4.689, 3],
  [2200, 2209, 'Noordwijk', 'Zuid-Holland', 52.238, 4.445, 2],
  [2300, 2334, 'Leiden', 'Zuid-Holland', 52.16, 4.497, 3],
  [2400, 2409, 'Alphen aan den Rijn', 'Zuid-Holland', 52.129, 4.656, 3],
  [2490, 2599, 'Den Haag', 'Zuid-Holland', 52.078, 4.288, 5],
  [2600, 2629, 'Delft', 'Zuid-Holland', 52.012, 4.357, 3],
  [2700, 2729, 'Zoetermeer', 'Zuid-Holland', 52.057, 4.493, 3],
  [2800, 2809, 'Gouda', 'Zuid-Holland', 52.012, 4.711, 2],
  [3000, 3089, 'Rotterdam', 'Zuid-Holland', 51.9244, 4.4777, 6],
  [3100, 3125, 'Schiedam', 'Zuid-Holland', 51.919, 4.399, 2],
  [3300, 3329, 'Dordrecht', 'Zuid-Holland', 51.813, 4.69, 3],
  [3500, 3585, 'Utrecht', 'Utrecht', 52.0907, 5.1214, 5],
  [3700, 3709, 'Zeist', 'Utrecht', 52.089, 5.233, 2],
  [3800, 3829, 'Amersfoort', 'Utrecht', 52.156, 5.388, 4],
  [3900, 3909, 'Veenendaal', 'Utrecht', 52.028, 5.558, 2],
  [4000, 4009, 'Tiel', 'Gelderland', 51.886, 5.43, 2],
  [4200, 4209, 'Gorinchem', 'Zuid-Holland', 51.834, 4.975, 2],
  [4330, 4339, 'Middelburg', 'Zeeland', 51.499, 3.611, 2],
  [4380, 4389, 'Vlissingen', 'Zeeland', 51.442, 3.573, 2],
  [4460, 4469, 'Goes', 'Zeeland', 51.504, 3.889, 2],
  [4600, 4629, 'Bergen op Zoom', 'Noord-Brabant', 51.495, 4.287, 3],
  [4700, 4709, 'Roosendaal', 'Noord-Brabant', 51.531, 4.465, 3],
  [4800, 4839, 'Breda', 'Noord-Brabant', 51.589, 4.776, 4],
  [5000, 5049, 'Tilburg', 'Noord-Brabant', 51.56, 5.091, 4],
  [5200, 5237, "'s-Hertogenbosch", 'Noord-Brabant', 51.697, 5.304, 3],
  [5340, 5349, 'Oss', 'Noord-Brabant', 51.765, 5.518, 2],
  [5400, 5409, 'Uden', 'Noord-Brabant', 51.66, 5.617, 2],
  [5600, 5658, 'Eindhoven', 'Noord-Brabant', 51.441, 5.47, 5],
  [5700, 5709, 'Helmond', 'Noord-Brabant', 51.479, 5.657, 3],
  [5900, 5916, 'Venlo', 'Limburg', 51.37, 6.172, 3],
  [6000, 6009, 'Weert', 'Limburg', 51.251, 5.706, 2],
  [6040, 6049, 'Roermond', 'Limburg', 51.194, 5.987, 2],
  [6130, 6139, 'Sittard', 'Limburg', 50.998, 5.869, 2],
  [6200, 6229, 'Maastricht', 'Limburg', 50.851, 5.691, 3],
  [6400, 6419, 'Heerlen', 'Limburg', 50.888, 5.979, 3],
  [6500, 6546, 'Nijmegen', 'Gelderland', 51.842, 5.853, 4],
  [6700, 6709, 'Wageningen', 'Gelderland', 51.97, 5.666, 2],
  [6710, 6719, 'Ede', 'Gelderland', 52.04, 5.665, 3],
  [6800, 6846, 'Arnhem', 'Gelderland', 51.985, 5.899, 4],
  [7000, 7009, 'Doetinchem', 'Gelderland', 51.965, 6.289, 2],
  [7200, 7209, 'Zutphen', 'Gelderland', 52.138, 6.201, 2],
  [7300, 7339, 'Apeldoorn', 'Gelderland', 52.211, 5.969, 4],
  [7400, 7429, 'Deventer', 'Overijssel', 52.255, 6.163, 3],
  [7500, 7547, 'Enschede', 'Overijssel', 52.221, 6.893, 4],
  [7550, 7559, 'Hengelo', 'Overijssel', 52.266, 6.793, 3],
  [7600, 7609, 'Almelo', 'Overijssel', 52.356, 6.663, 2],
  [7800, 7828, 'Emmen', 'Drenthe', 52.785, 6.897, 3],
  [8000, 8048, 'Zwolle', 'Overijssel', 52.516, 6.083, 4],
  [8200, 8245, 'Lelystad', 'Flevoland', 52.518, 5.471, 4],
  [8440, 8449, 'Heerenveen', 'Friesland', 52.96, 5.92, 2],
  [8900, 8939, 'Leeuwarden', 'Friesland', 53.201, 5.8, 3],
  [9200, 9209, 'Drachten', 'Friesland', 53.107, 6.099, 2],
  [9400, 9409, 'Assen', 'Drenthe', 52.993, 6.562, 3],
  [9700, 9747, 'Groningen', 'Groningen', 53.2194, 6.5665, 4],
];

const beNl: Row[] = [
  [1500, 1599, 'Halle', 'Vlaams-Brabant', 50.733, 4.234, 3],
  [1800, 1899, 'Vilvoorde', 'Vlaams-Brabant', 50.928, 4.425, 3],
  [1930, 1939, 'Zaventem', 'Vlaams-Brabant', 50.884, 4.47, 2],
  [2000, 2660, 'Antwerpen', 'Antwerpen', 51.2194, 4.4025, 6],
  [2800, 2899, 'Mechelen', 'Antwerpen', 51.026, 4.478, 3],
  [3000, 3099, 'Leuven', 'Vlaams-Brabant', 50.879, 4.701, 4],
  [3500, 3599, 'Hasselt', 'Limburg', 50.93, 5.338, 3],
  [3600, 3699, 'Genk', 'Limburg', 50.965, 5.5, 3],
  [8000, 8099, 'Brugge', 'West-Vlaanderen', 51.209, 3.224, 4],
  [8400, 8499, 'Oostende', 'West-Vlaanderen', 51.215, 2.928, 3],
  [8500, 8599, 'Kortrijk', 'West-Vlaanderen', 50.828, 3.265, 3],
  [9000, 9099, 'Gent', 'Oost-Vlaanderen', 51.0543, 3.7174, 5],
  [9100, 9199, 'Sint-Niklaas', 'Oost-Vlaanderen', 51.165, 4.143, 3],
  [9300, 9399, 'Aalst', 'Oost-Vlaanderen', 50.938, 4.039, 3],
];

const beFr: Row[] = [
  [1000, 1299, 'Bruxelles', 'Bruxelles-Capitale', 50.8503, 4.3517, 6],
  [1300, 1499, 'Wavre', 'Brabant wallon', 50.717, 4.601, 3],
  [4000, 4099, 'Liège', 'Liège', 50.6326, 5.5797, 5],
  [4800, 4899, 'Verviers', 'Liège', 50.589, 5.862, 3],
  [5000, 5099, 'Namur', 'Namur', 50.467, 4.872, 4],
  [6000, 6099, 'Charleroi', 'Hainaut', 50.411, 4.444, 5],
  [7000, 7099, 'Mons', 'Hainaut', 50.454, 3.952, 3],
  [7500, 7599, 'Tournai', 'Hainaut', 50.606, 3.389, 3],
];

const de: Row[] = [
  [1067, 1328, 'Dresden', 'Sachsen', 51.0504, 13.7373, 6],
  [4103, 4357, 'Leipzig', 'Sachsen', 51.3397, 12.3731, 6],
  [10115, 14199, 'Berlin', 'Berlin', 52.52, 13.405, 12],
  [18055, 18147, 'Rostock', 'Mecklenburg-Vorpommern', 54.092, 12.099, 4],
  [20095, 22769, 'Hamburg', 'Hamburg', 53.5511, 9.9937, 10],
  [24103, 24159, 'Kiel', 'Schleswig-Holstein', 54.323, 10.123, 4],
  [26121, 26135, 'Oldenburg', 'Niedersachsen', 53.143, 8.214, 3],
  [28195, 28779, 'Bremen', 'Bremen', 53.0793, 8.8017, 6],
  [30159, 30669, 'Hannover', 'Niedersachsen', 52.3759, 9.732, 6],
  [33602, 33739, 'Bielefeld', 'Nordrhein-Westfalen', 52.021, 8.532, 4],
  [34117, 34134, 'Kassel', 'Hessen', 51.312, 9.479, 4],
  [37073, 37085, 'Göttingen', 'Niedersachsen', 51.541, 9.916, 3],
  [38100, 38126, 'Braunschweig', 'Niedersachsen', 52.268, 10.526, 4],
  [39104, 39130, 'Magdeburg', 'Sachsen-Anhalt', 52.12, 11.627, 4],
  [40210, 40629, 'Düsseldorf', 'Nordrhein-Westfalen', 51.2277, 6.7735, 6],
  [41061, 41239, 'Mönchengladbach', 'Nordrhein-Westfalen', 51.18, 6.442, 4],
  [42103, 42399, 'Wuppertal', 'Nordrhein-Westfalen', 51.256, 7.15, 4],
  [44135, 44388, 'Dortmund', 'Nordrhein-Westfalen', 51.5136, 7.4653, 6],
  [45127, 45359, 'Essen', 'Nordrhein-Westfalen', 51.4556, 7.0116, 6],
  [46045, 46149, 'Oberhausen', 'Nordrhein-Westfalen', 51.469, 6.851, 3],
  [46395, 46399, 'Bocholt', 'Nordrhein-Westfalen', 51.838, 6.615, 2],
  [47051, 47279, 'Duisburg', 'Nordrhein-Westfalen', 51.434, 6.762, 5],
  [47533, 47559, 'Kleve', 'Nordrhein-Westfalen', 51.788, 6.139, 2],
  [48143, 48167, 'Münster', 'Nordrhein-Westfalen', 51.96, 7.626, 4],
  [49074, 49090, 'Osnabrück', 'Niedersachsen', 52.279, 8.047, 3],
  [50667, 51149, 'Köln', 'Nordrhein-Westfalen', 50.9375, 6.9603, 8],
  [52062, 52080, 'Aachen', 'Nordrhein-Westfalen', 50.776, 6.084, 4],
  [53111, 53229, 'Bonn', 'Nordrhein-Westfalen', 50.737, 7.098, 4],
  [55116, 55131, 'Mainz', 'Rheinland-Pfalz', 49.993, 8.247, 3],
  [60306, 60599, 'Frankfurt am Main', 'Hessen', 50.1109, 8.6821, 7],
  [65183, 65207, 'Wiesbaden', 'Hessen', 50.078, 8.24, 4],
  [68159, 68309, 'Mannheim', 'Baden-Württemberg', 49.487, 8.466, 4],
  [69115, 69126, 'Heidelberg', 'Baden-Württemberg', 49.398, 8.672, 3],
  [70173, 70629, 'Stuttgart', 'Baden-Württemberg', 48.7758, 9.1829, 7],
  [76131, 76229, 'Karlsruhe', 'Baden-Württemberg', 49.007, 8.404, 4],
  [79098, 79117, 'Freiburg im Breisgau', 'Baden-Württemberg', 47.999, 7.842, 3],
  [80331, 81929, 'München', 'Bayern', 48.1351, 11.582, 9],
  [86150, 86199, 'Augsburg', 'Bayern', 48.371, 10.898, 4],
  [90402, 90491, 'Nürnberg', 'Bayern', 49.4521, 11.0767, 6],
  [99084, 99099, 'Erfurt', 'Thüringen', 50.978, 11.029, 4],
];

const toRegions = (countryCode: Region['countryCode'], language: Language, rows: Row[]): Region[] =>
  rows.map(([from, to, city, state, lat, lng, radiusKm]) => ({ countryCode, from, to, city, state, lat, lng, radiusKm, language }));

/** Every region, grouped by country and sorted by `from` (the geocoder relies on the order). */
export function buildRegions(): Record<Region['countryCode'], Region[]> {
  const byFrom = (a: Region, b: Region) => a.from - b.from;
  return {
    NL: toRegions('NL', 'nl', nl).sort(byFrom),
    BE: [...toRegions('BE', 'nl', beNl), ...toRegions('BE', 'fr', beFr)].sort(byFrom),
    DE: toRegions('DE', 'de', de).sort(byFrom),
  };
}

/** Approximate centres of other countries, so their addresses still geocode somewhere plausible. */
export const countryCentres: Record<string, { lat: number; lng: number; spreadKm: number }> = {
  LU: { lat: 49.6116, lng: 6.1319, spreadKm: 20 },
  FR: { lat: 46.6034, lng: 1.8883, spreadKm: 300 },
  GB: { lat: 52.3555, lng: -1.1743, spreadKm: 250 },
  AT: { lat: 47.5162, lng: 14.5501, spreadKm: 150 },
  CH: { lat: 46.8182, lng: 8.2275, spreadKm: 100 },
  DK: { lat: 56.2639, lng: 9.5018, spreadKm: 120 },
  PL: { lat: 51.9194, lng: 19.1451, spreadKm: 250 },
  ES: { lat: 40.4637, lng: -3.7492, spreadKm: 300 },
  IT: { lat: 41.8719, lng: 12.5674, spreadKm: 300 },
  IE: { lat: 53.4129, lng: -8.2439, spreadKm: 120 },
  CZ: { lat: 49.8175, lng: 15.473, spreadKm: 150 },
  SE: { lat: 60.1282, lng: 18.6435, spreadKm: 400 },
  PT: { lat: 39.3999, lng: -8.2245, spreadKm: 200 },
};
