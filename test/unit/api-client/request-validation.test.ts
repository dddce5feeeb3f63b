import { afterEach, describe, expect, it } from 'vitest';
import { createDeliveryClient, DeliveryApiError, type DeliveryClient } from '../../../src/main/api';

// Port 9 (discard) on loopback: nothing is listening, and no test here may get as far as connecting.
const clients: DeliveryClient[] = [];
function client(getApiKey: () => Promise<string | null> = async () => 'sk_test_key') {
  let keyReads = 0;
  const created = createDeliveryClient({
    baseUrl: 'http://127.0.0.1:9',
    getApiKey: () => {
      keyReads += 1;
      return getApiKey();
    },
    retry: { maxAttempts: 1 },
  });
  clients.push(created);
  return { api: created, keyReads: () => keyReads };
}
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

const address = { street: 'Damrak', houseNumber: '1', postalCode: '1012 LG', countryCode: 'NL' };
const order = { locationId: '101', orderRef: 'REF-1', deliveryName: 'Ada', deliveryAddress: address };

async function refusal(promise: Promise<unknown>): Promise<DeliveryApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DeliveryApiError);
  return error as DeliveryApiError;
}

describe('requests are validated before anything is sent', () => {
  it('an order without a recipient name is refused locally with the field named', async () => {
    const { api, keyReads } = client();
    const error = await refusal(api.createOrder({ ...order, deliveryName: '  ' }));
    expect(error.code).toBe('VALIDATION');
    expect(error.details).toEqual(['deliveryName should not be empty']);
    expect(error.message).toMatch(/Nothing was sent/);
    expect(error.attempts).toBe(0);
    expect(keyReads()).toBe(0);
  });

  it('lists every problem of an order at once', async () => {
    const { api } = client();
    const error = await refusal(
      api.createOrder({
        ...order,
        locationId: '',
        deliveryAddress: { ...address, postalCode: '', countryCode: 'NLD' },
        dimensions: { length: 100, width: 200, height: 50 },
        deliveryDate: '01-03-2025',
      }),
    );
    expect(error.details).toEqual([
      'locationId should not be empty',
      'deliveryAddress.postalCode should not be empty',
      'deliveryAddress.countryCode should be a two-letter ISO 3166-1 alpha-2 code',
      'dimensions must satisfy length >= width >= height',
      'deliveryDate should be YYYY-MM-DD',
    ]);
  });

  it('refuses an address check without a street', async () => {
    const { api } = client();
    const error = await refusal(api.checkAddress('101', { deliveryAddress: { ...address, street: '' } }));
    expect(error.details).toEqual(['deliveryAddress.street should not be empty']);
  });

  it('refuses a postal code check without a country', async () => {
    const { api } = client();
    const error = await refusal(api.checkPostalCode('101', { postalCode: '1012LG' } as never));
    expect(error.code).toBe('VALIDATION');
    expect(error.details?.[0]).toMatch(/^countryCode/);
  });

  it('refuses a pickup point search with neither postal code nor coordinates', async () => {
    const { api } = client();
    const error = await refusal(api.searchPickupPoints({ countryCode: 'NL' }));
    expect(error.details).toEqual(['countryCode and postalCode are required unless lat and lng are given']);
  });

  it('refuses maxResults outside 1..100 and unknown type filters', async () => {
    const { api } = client();
    expect((await refusal(api.searchPickupPoints({ lat: 52.37, lng: 4.89, maxResults: 101 }))).code).toBe('VALIDATION');
    expect((await refusal(api.searchPickupPoints({ lat: 52.37, lng: 4.89, types: ['SERVICE_POINT' as never] }))).code).toBe('VALIDATION');
  });

  it('refuses printSize on a ZPL label: ZPL is always A6', async () => {
    const { api, keyReads } = client();
    const error = await refusal(api.getLabel('ORD-1', { format: 'zpl', printSize: 'A4' } as never));
    expect(error.details).toEqual(['printSize applies to PDF labels only; ZPL is always A6']);
    expect(keyReads()).toBe(0);
  });

  it('refuses an unknown format or orientation', async () => {
    const { api } = client();
    expect((await refusal(api.getLabel('ORD-1', { format: 'png' } as never))).code).toBe('VALIDATION');
    expect((await refusal(api.getLabel('ORD-1', { format: 'zpl', orientation: 'upside-down' } as never))).code).toBe('VALIDATION');
  });

  it('refuses empty, oversized or control-character ids in paths', async () => {
    const { api } = client();
    expect((await refusal(api.getLabel('  ', { format: 'zpl' }))).details).toEqual(['orderId should not be empty']);
    expect((await refusal(api.cancelOrder('x'.repeat(201)))).code).toBe('VALIDATION');
    expect((await refusal(api.getBundleLabels('B-1\r\nX-Injected: 1'))).details).toEqual(['bundleId should not contain control characters']);
    expect((await refusal(api.coverage(''))).details).toEqual(['locationId should not be empty']);
  });
});

describe('the API key', () => {
  it('missing: KEY_MISSING without a request', async () => {
    const { api, keyReads } = client(async () => null);
    const error = await refusal(api.coverage('101'));
    expect(error.code).toBe('KEY_MISSING');
    expect(error.attempts).toBe(0);
    expect(keyReads()).toBe(1);
  });

  it('blank: KEY_MISSING', async () => {
    const { api } = client(async () => '   ');
    expect((await refusal(api.coverage('101'))).code).toBe('KEY_MISSING');
  });

  it('with characters a header cannot carry: refused without a request, and not quoted', async () => {
    const { api } = client(async () => 'sk_test\nsecret');
    const error = await refusal(api.coverage('101'));
    expect(error.code).toBe('KEY_REJECTED');
    expect(error.message).not.toContain('secret');
  });

  it('a keychain failure surfaces as KEYCHAIN_UNAVAILABLE', async () => {
    const { api } = client(async () => {
      throw new Error('Secret Service not running');
    });
    expect((await refusal(api.coverage('101'))).code).toBe('KEYCHAIN_UNAVAILABLE');
  });
});

describe('configuration', () => {
  it('refuses a base URL that is not http(s)', () => {
    expect(() => createDeliveryClient({ baseUrl: 'ftp://example.test', getApiKey: async () => 'k' })).toThrow(/https:\/\//);
    expect(() => createDeliveryClient({ baseUrl: 'not a url', getApiKey: async () => 'k' })).toThrow(/not a valid URL/);
  });

  it('refuses nonsensical retry numbers', () => {
    expect(() => createDeliveryClient({ baseUrl: 'http://127.0.0.1:9', getApiKey: async () => 'k', retry: { maxAttempts: 0 } })).toThrow(RangeError);
    expect(() => createDeliveryClient({ baseUrl: 'http://127.0.0.1:9', getApiKey: async () => 'k', timeouts: { attemptMs: -1 } })).toThrow(RangeError);
  });
});
