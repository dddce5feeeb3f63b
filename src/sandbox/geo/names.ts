/** Word lists for real-looking seed data: streets, people and shops, per language. */
import type { Language } from './regions';

export const streets: Record<Language, readonly string[]> = {
  nl: [
    'Kerkstraat', 'Dorpsstraat', 'Stationsweg', 'Molenweg', 'Schoolstraat', 'Hoofdstraat', 'Julianastraat',
    'Beatrixlaan', 'Wilhelminastraat', 'Nieuwstraat', 'Marktplein', 'Kastanjelaan', 'Eikenlaan', 'Lindelaan',
    'Parkweg', 'Prins Hendrikstraat', 'Oranjestraat', 'Emmastraat', 'Sportlaan', 'Burgemeester de Withstraat',
    'Van Goghstraat', 'Rembrandtlaan', 'Vondelstraat', 'Tulpstraat', 'Rozenstraat', 'Dahliastraat', 'Industrieweg',
    'Havenstraat', 'Kanaalweg', 'Zuiderweg', 'Noordeinde', 'Westersingel', 'Oosterstraat', 'Kerkplein',
    'Brinkstraat', 'Veldweg', 'Esdoornlaan', 'Berkenlaan', 'Populierenlaan', 'Graaf Florisstraat',
  ],
  fr: [
    'Rue de la Station', 'Rue de l’Église', 'Avenue Louise', 'Chaussée de Louvain', 'Rue Haute', 'Rue Neuve',
    'Boulevard Anspach', 'Rue du Marché', 'Place Saint-Lambert', 'Rue des Carmes', 'Avenue des Tilleuls',
    'Rue du Moulin', 'Rue de la Gare', 'Chaussée de Namur', 'Rue des Écoles', 'Avenue de la Liberté',
    'Rue Royale', 'Rue du Centre', 'Place Communale', 'Rue des Champs',
  ],
  de: [
    'Hauptstraße', 'Bahnhofstraße', 'Schulstraße', 'Gartenstraße', 'Dorfstraße', 'Bergstraße', 'Kirchstraße',
    'Lindenstraße', 'Goethestraße', 'Schillerstraße', 'Waldstraße', 'Ringstraße', 'Mühlenweg', 'Birkenweg',
    'Friedrichstraße', 'Am Markt', 'Marktplatz', 'Poststraße', 'Rosenstraße', 'Wiesenweg', 'Mozartstraße',
    'Beethovenstraße', 'Feldstraße', 'Industriestraße', 'Kastanienallee', 'Parkstraße', 'Lessingstraße',
    'Kantstraße', 'Blumenstraße', 'Am Bahnhof',
  ],
};

export const givenNames: Record<Language, readonly string[]> = {
  nl: ['Daan', 'Sanne', 'Lucas', 'Emma', 'Sem', 'Julia', 'Milan', 'Lotte', 'Finn', 'Anouk', 'Bram', 'Fleur', 'Jesse', 'Iris', 'Thijs', 'Noor', 'Ruben', 'Eva'],
  fr: ['Lucas', 'Louise', 'Arthur', 'Camille', 'Louis', 'Chloé', 'Victor', 'Manon', 'Hugo', 'Léa', 'Jules', 'Clara'],
  de: ['Lukas', 'Anna', 'Leon', 'Marie', 'Finn', 'Sophie', 'Jonas', 'Lena', 'Paul', 'Laura', 'Felix', 'Hannah', 'Maximilian', 'Lea'],
};

export const familyNames: Record<Language, readonly string[]> = {
  nl: ['de Jong', 'Jansen', 'de Vries', 'van den Berg', 'van Dijk', 'Bakker', 'Janssen', 'Visser', 'Smit', 'Meijer', 'de Boer', 'Mulder', 'de Groot', 'Bos', 'Vos', 'Peters', 'Hendriks', 'van Leeuwen', 'Dekker', 'Brouwer', 'Peeters', 'Maes', 'Claes', 'Wouters'],
  fr: ['Dubois', 'Lambert', 'Dupont', 'Martin', 'Simon', 'Laurent', 'Lejeune', 'Renard', 'Leroy', 'Mertens', 'Goossens', 'Leclercq'],
  de: ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Schulz', 'Hoffmann', 'Schäfer', 'Koch', 'Bauer', 'Richter', 'Klein', 'Wolf'],
};

/** Shops that host a service point, as a name pattern (`{family}` is filled with a family name). */
export const servicePointShops: Record<Language, readonly string[]> = {
  nl: ['Primera {family}', 'Bruna {street}', 'Tabakszaak {family}', 'Boekhandel {family}', 'Dierenspeciaalzaak De Hondenmand', 'Fietsenmaker {family}', 'Drogisterij {family}', 'Bloemenhuis {family}', 'Supermarkt Plus {family}', 'Kiosk Station', 'Tankstation De Rotonde', 'Kapsalon {given}', 'Reparatiecafé {street}', 'Cadeauwinkel Het Hoekje', 'Wasserette {street}'],
  fr: ['Librairie {family}', 'Tabac-Presse {family}', 'Night Shop {street}', 'Carrefour Express {street}', 'Pharmacie {family}', 'Fleuriste {given}', 'Boulangerie {family}', 'Quincaillerie {family}', 'Station Q8 {street}'],
  de: ['Lotto-Toto {family}', 'Schreibwaren {family}', 'Kiosk am {street}', 'Getränkemarkt {family}', 'Reinigung {family}', 'Blumen {given}', 'Bäckerei {family}', 'Tankstelle {street}', 'Handyshop {street}', 'Zeitschriften {family}'],
};

export const postOfficeNames: Record<Language, string> = {
  nl: 'Postkantoor {city} {street}',
  fr: 'Bureau de poste {city} {street}',
  de: 'Postfiliale {city} {street}',
};

export const lockerNames: Record<Language, string> = {
  nl: 'Pakketautomaat {street}',
  fr: 'Distributeur de colis {street}',
  de: 'Packstation {number}',
};

export const mailboxNames: Record<Language, string> = {
  nl: 'Brievenbus {street}',
  fr: 'Boîte aux lettres {street}',
  de: 'Briefkasten {street}',
};

export const lockerGuidance: Record<Language, readonly string[]> = {
  nl: ['Naast de ingang van de supermarkt', 'Op het stationsplein, bij de fietsenstalling', 'In de hal van het winkelcentrum', 'Bij de parkeerplaats, naast de glasbak'],
  fr: ['À côté de l’entrée du supermarché', 'Sur le parking, près de la station de lavage', 'Dans la galerie commerçante', 'Devant la gare'],
  de: ['Neben dem Eingang des Supermarkts', 'Auf dem Parkplatz am Bahnhof', 'Im Einkaufszentrum, Erdgeschoss', 'Gegenüber der Tankstelle'],
};

export const shopGuidance: Record<Language, readonly string[]> = {
  nl: ['Pakketten afhalen aan de servicebalie', 'Achter in de winkel, bij de kassa', 'Ingang aan de zijkant van het pand'],
  fr: ['Retrait des colis au comptoir', 'Au fond du magasin, près de la caisse', 'Entrée sur le côté du bâtiment'],
  de: ['Paketausgabe an der Kasse', 'Hinten im Laden, beim Tresen', 'Eingang an der Seite des Gebäudes'],
};

const particles = new Set(['van', 'de', 'der', 'den', 'het', 'aan', 'op', 'te', 'ten', 'ter', 'in', 'la', 'le', 'les', 'du', 'des', 'am', 'im', 'an', 'zum', 'zur', 'von', 'und', 'et', 'sur']);

/**
 * Whitespace collapsed and, when the text is all one case, words capitalised except particles
 * ("KERKSTRAAT" → "Kerkstraat", "prins  hendrikstraat" → "Prins Hendrikstraat"). Mixed case is kept.
 */
export function tidyName(text: string): string {
  const collapsed = text.trim().replace(/\s+/g, ' ');
  if (collapsed !== collapsed.toLowerCase() && collapsed !== collapsed.toUpperCase()) return collapsed;
  return collapsed
    .toLowerCase()
    .split(' ')
    .map((word, index) => (index > 0 && particles.has(word) ? word : word.charAt(0).toUpperCase() + word.slice(1)))
    .join(' ');
}
