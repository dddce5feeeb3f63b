import { describe, expect, it } from 'vitest';
import { checkUploadRow, problemInWords } from '../../../src/main/shipping/upload-rows';

const good = {
  orderRef: 'R-1',
  locationId: '1101',
  deliveryName: 'Jan Bakker',
  deliveryStreet: 'Damrak',
  deliveryNumber: '20',
  deliveryPostalCode: '1012 LH',
  deliveryCity: 'Amsterdam',
  deliveryCountry: 'nl',
};
const locations = new Set(['1101']);
const codes = (cells: Record<string, string>) => checkUploadRow(cells, locations).problems.map((problem) => `${problem.code}${problem.column ? ` ${problem.column}` : ''}`);

describe('the upload row check', () => {
  it('turns a good row into the order to create, country upper-cased, dimensions and flags as sent', () => {
    const checked = checkUploadRow({ ...good, length: '300', width: '200,5', height: '100', weight: '1200', signature: 'ja', deliveryDate: '2026-02-28', description: 'Boeken' }, locations);
    expect(checked.problems).toEqual([]);
    expect(checked.request).toMatchObject({
      locationId: '1101',
      orderRef: 'R-1',
      name: 'Boeken',
      deliveryAddress: { countryCode: 'NL', postalCode: '1012 LH', suffix: '' },
      dimensions: { length: 300, width: 200.5, height: 100 },
      weight: 1200,
      signature: true,
      deliveryDate: '2026-02-28',
    });
  });

  it('lists every problem of a row, not only the first', () => {
    expect(codes({ ...good, deliveryStreet: '', deliveryCountry: 'NLD', deliveryDate: '2026-02-30', weight: '-1', notAtNeighbour: 'maybe' })).toEqual([
      'missing deliveryStreet',
      'country deliveryCountry',
      'date deliveryDate',
      'number weight',
      'flag notAtNeighbour',
    ]);
  });

  it('checks the postal code against the country, and length ≥ width ≥ height without reordering', () => {
    expect(codes({ ...good, deliveryPostalCode: '10123' })).toEqual(['postal-code deliveryPostalCode']);
    expect(codes({ ...good, deliveryCountry: 'DE', deliveryPostalCode: '10115' })).toEqual([]);
    expect(codes({ ...good, length: '100', width: '200', height: '50' })).toEqual(['dimensions-order']);
    expect(codes({ ...good, length: '100', width: '50' })).toEqual(['dimensions-partial']);
  });

  it('refuses a location that is not one of the upload\'s, and a row without a recipient name', () => {
    expect(codes({ ...good, locationId: '1201' })).toEqual(['location locationId']);
    const { deliveryName: _omitted, ...withoutName } = good;
    expect(codes(withoutName)).toEqual(['missing deliveryName']);
    expect(problemInWords({ code: 'location', column: 'locationId', value: '1201' })).toBe('locationId is not one of the locations of this upload (got "1201")');
  });
});
