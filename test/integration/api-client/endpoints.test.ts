/**
 * Every endpoint over real HTTP against a purpose-built server: what goes on the wire (method, path,
 * query, headers, body) and what the caller gets back, including the error codes and bad answers.
 */
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createDeliveryClient, DeliveryApiError, type DeliveryClientOptions } from '../../../src/main/api';
import { orderRecord, pdfBase64, pdfBytes, sendJson, startScriptedServer, zplBase64, zplText, type Script, type ScriptedServer } from './scripted-server';

const apiKey = 'sk_test_9f8e7d6c5b4a';
const servers: ScriptedServer[] = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function setup(script: Script, options: Partial<DeliveryClientOptions> = {}) {
  const server = await startScriptedServer(script);
  servers.push(server);
  const logLines: string[] = [];
  const log = (level: string) => (message: string, fields?: Record<string, unknown>) => logLines.push(`${level} ${message} ${JSON.stringify(fields)}`);
  const api = createDeliveryClient({
    baseUrl: server.baseUrl,
    getApiKey: async () => apiKey,
    retry: { baseDelayMs: 10, maxDelayMs: 50 },
    logger: { info: log('info'), warn: log('warn'), error: log('error') },
    ...options,
  });
  closers.push(() => api.close());
  return { server, api, logLines };
}

async function failure(promise: Promise<unknown>): Promise<DeliveryApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DeliveryApiError);
  return error as DeliveryApiError;
}

const address = { street: 'Damrak', houseNumber: '1', suffix: '', postalCode: '1012 LG', city: 'Amsterdam', countryCode: 'NL' };
const resolvedAddress = { ...address, coordinates: { lat: 52.3763, lng: 4.8983 } };

describe('endpoints', () => {
  it('checkAddress posts the check and returns the verdict', async () => {
    const { server, api } = await setup((_req, res) => sendJson(res, 200, { deliverable: false, reason: 'OUT_OF_AREA', resolvedAddress, missingCapabilities: { signature: true } }));
    const result = await api.checkAddress(101, { deliveryAddress: address, signature: true, dimensions: { length: 300, width: 200, height: 100 } });
    expect(result).toMatchObject({ deliverable: false, reason: 'OUT_OF_AREA', missingCapabilities: { signature: true } });
    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.url.pathname).toBe('/orders/check/101');
    expect(request?.headers['api-key']).toBe(apiKey);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request?.body ?? '')).toEqual({ deliveryAddress: address, signature: true, dimensions: { length: 300, width: 200, height: 100 } });
  });

  it('checkPostalCode posts to the postal-code path', async () => {
    const { server, api } = await setup((_req, res) => sendJson(res, 200, { deliverable: true }));
    await expect(api.checkPostalCode('101', { postalCode: '1018 PN', countryCode: 'NL' })).resolves.toEqual({ deliverable: true });
    expect(server.requests[0]?.url.pathname).toBe('/orders/check/postal-code/101');
  });

  it('coverage returns the list keyed by country', async () => {
    const { server, api } = await setup((_req, res) => sendJson(res, 200, { NL: ['1011', '1012LG'], BE: ['1000'] }));
    await expect(api.coverage('101')).resolves.toEqual({ NL: ['1011', '1012LG'], BE: ['1000'] });
    expect(server.requests[0]?.method).toBe('GET');
    expect(server.requests[0]?.url.pathname).toBe('/coverage/postal-codes/101');
  });

  it('searchPickupPoints repeats `types` and keeps unknown point fields', async () => {
    const point = { pudoId: 'opaque:1', type: 'PARCEL_LOCKER', name: 'Locker Damrak', distanceMeters: 120, futureField: 'kept' };
    const { server, api } = await setup((_req, res) => sendJson(res, 200, { points: [point], totalFound: 7 }));
    const result = await api.searchPickupPoints({ countryCode: 'NL', postalCode: '1012LG', maxResults: 1, types: ['PARCEL_LOCKER', 'MAILBOX_POBOX'] });
    expect(result.totalFound).toBe(7);
    expect(result.points[0]).toMatchObject(point);
    const url = server.requests[0]?.url;
    expect(url?.pathname).toBe('/pickup-points');
    expect(url?.searchParams.getAll('types')).toEqual(['PARCEL_LOCKER', 'MAILBOX_POBOX']);
    expect(url?.searchParams.get('maxResults')).toBe('1');
    expect(url?.searchParams.get('countryCode')).toBe('NL');
  });

  it('searchPickupPoints by coordinate', async () => {
    const { server, api } = await setup((_req, res) => sendJson(res, 200, { points: [], totalFound: 0 }));
    await expect(api.searchPickupPoints({ lat: 52.37, lng: 4.89, maxDistanceKm: 2.5 })).resolves.toEqual({ points: [], totalFound: 0 });
    const params = server.requests[0]?.url.searchParams;
    expect([params?.get('lat'), params?.get('lng'), params?.get('maxDistanceKm'), params?.has('countryCode')]).toEqual(['52.37', '4.89', '2.5', false]);
  });

  it('createOrder posts the order once and returns the created order', async () => {
    const { server, api } = await setup((_req, res) => sendJson(res, 201, orderRecord()));
    const created = await api.createOrder({ locationId: '101', orderRef: 'REF-501', deliveryName: 'Ada Lovelace', deliveryAddress: address, weight: 1200 });
    expect(created).toMatchObject({ orderId: 'ORD-501', barcode: '3SABC123', orderBundle: { bundleId: 'BND-9' } });
    expect(server.requests).toHaveLength(1);
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({ locationId: '101', orderRef: 'REF-501', deliveryName: 'Ada Lovelace', deliveryAddress: address, weight: 1200 });
  });

  it('getLabel sends format and the pinned orientation explicitly, and returns checked ZPL bytes', async () => {
    const { server, api } = await setup((_req, res) => sendJson(res, 200, { label: zplBase64 }), { orientation: 'portrait' });
    const label = await api.getLabel('ORD-501', { format: 'zpl' });
    expect(label.format).toBe('zpl');
    expect(Buffer.from(label.bytes).toString('utf8')).toBe(zplText);
    expect(label).toMatchObject({ orderId: 'ORD-501', orientation: 'portrait', base64: zplBase64 });
    const params = server.requests[0]?.url.searchParams;
    expect(server.requests[0]?.url.pathname).toBe('/orders/label/ORD-501');
    expect([params?.get('format'), params?.get('orientation'), params?.has('printSize')]).toEqual(['zpl', 'portrait', false]);
  });

  it('getLabel defaults the orientation to landscape, and a per-call orientation wins', async () => {
    const { server, api } = await setup((_req, res) => sendJson(res, 200, { label: pdfBase64 }));
    await api.getLabel('ORD-1', { format: 'pdf' });
    const pdf = await api.getLabel('ORD-1', { format: 'pdf', orientation: 'portrait', printSize: 'A4' });
    expect(Buffer.from(pdf.bytes).equals(pdfBytes)).toBe(true);
    expect(server.requests.map((r) => r.url.search)).toEqual(['?format=pdf&orientation=landscape', '?format=pdf&orientation=portrait&printSize=A4']);
  });

  it('getLabel reads the pinned orientation at call time', async () => {
    let pinned: 'landscape' | 'portrait' = 'landscape';
    const { server, api } = await setup((_req, res) => sendJson(res, 200, { label: zplBase64 }), { orientation: () => pinned });
    await api.getLabel('ORD-1', { format: 'zpl' });
    pinned = 'portrait';
    await api.getLabel('ORD-1', { format: 'zpl' });
    expect(server.requests.map((r) => r.url.searchParams.get('orientation'))).toEqual(['landscape', 'portrait']);
  });

  it('ids are encoded into the path', async () => {
    const { server, api } = await setup((_req, res) => sendJson(res, 200, { label: zplBase64 }));
    await api.getLabel('a/b?c#d', { format: 'zpl' });
    expect(server.requests[0]?.url.pathname).toBe('/orders/label/a%2Fb%3Fc%23d');
  });

  it('getBundleLabels asks for PDF and returns every checked document', async () => {
    const { server, api } = await setup((_req, res) => sendJson(res, 200, [{ label: pdfBase64 }, { label: pdfBase64 }]));
    const labels = await api.getBundleLabels('BND-9');
    expect(labels).toHaveLength(2);
    expect(labels[0]).toMatchObject({ format: 'pdf', bundleId: 'BND-9' });
    expect(server.requests[0]?.url.pathname).toBe('/orders/label/bundle/BND-9');
    expect(server.requests[0]?.url.search).toBe('?format=pdf');
  });

  it('cancelOrder patches and returns the order record', async () => {
    const { server, api } = await setup((_req, res) => sendJson(res, 200, orderRecord({ status: 'cancelled', orderBundle: null })));
    await expect(api.cancelOrder('ORD-501')).resolves.toMatchObject({ orderId: 'ORD-501', status: 'cancelled' });
    expect(server.requests[0]?.method).toBe('PATCH');
    expect(server.requests[0]?.url.pathname).toBe('/orders/cancel/ORD-501');
  });

  it('a base URL with a path prefix keeps it', async () => {
    const server = await startScriptedServer((_req, res) => sendJson(res, 200, { NL: ['1011'] }));
    servers.push(server);
    const api = createDeliveryClient({ baseUrl: `${server.baseUrl}/test/`, getApiKey: async () => apiKey });
    closers.push(() => api.close());
    await api.coverage('101');
    expect(server.requests[0]?.url.pathname).toBe('/test/coverage/postal-codes/101');
  });
});

describe('error answers', () => {
  it.each([
    [401, '{"statusCode":401,"message":"Unauthorized"}', 'KEY_REJECTED'],
    [403, '<html><body><h1>403 Forbidden</h1></body></html>', 'FORBIDDEN'],
    [404, '', 'ORDER_NOT_FOUND'],
    [410, 'gone', 'VALIDATION'],
  ])('%i is %s after exactly one request', async (status, body, code) => {
    const { server, api } = await setup((_req, res) => {
      res.writeHead(status, { 'content-type': 'text/html' });
      res.end(body);
    });
    const error = await failure(api.getLabel('ORD-404', { format: 'zpl' }));
    expect(error.code).toBe(code);
    expect(error.status).toBe(status);
    expect(server.requests).toHaveLength(1);
  });

  it('400 carries the messages list', async () => {
    const { api } = await setup((_req, res) =>
      sendJson(res, 400, { statusCode: 400, message: ['deliveryAddress.postalCode should not be empty'], error: 'Bad Request' }),
    );
    const error = await failure(api.createOrder({ locationId: '101', deliveryName: 'Ada', deliveryAddress: address }));
    expect(error.code).toBe('VALIDATION');
    expect(error.details).toEqual(['deliveryAddress.postalCode should not be empty']);
  });

  it("406 carries the service's message", async () => {
    const message = 'No carrier offering pickup point delivery is available for this address';
    const { server, api } = await setup((_req, res) => sendJson(res, 406, { statusCode: 406, message, error: 'Not Acceptable' }));
    const error = await failure(api.createOrder({ locationId: '101', deliveryName: 'Ada', deliveryAddress: address, pudoId: 'opaque:1' }));
    expect(error.code).toBe('PICKUP_POINT_REJECTED');
    expect(error.serviceMessage).toBe(message);
    expect(server.requests).toHaveLength(1);
  });
});

describe('answers that are not what the spec promises', () => {
  const cases: Array<[string, Script, RegExp]> = [
    ['an HTML page with status 200', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>maintenance</html>');
    }, /not JSON/],
    ['an empty body', (_req, res) => {
      res.writeHead(200);
      res.end();
    }, /empty/],
    ['JSON of the wrong shape', (_req, res) => sendJson(res, 200, { labels: [] }), /expected shape/],
    ['a label that is not base64', (_req, res) => sendJson(res, 200, { label: 'not base64!' }), /not valid base64/],
    ['truncated ZPL', (_req, res) => sendJson(res, 200, { label: Buffer.from(zplText.slice(0, 40)).toString('base64') }), /\^XZ/],
    ['a PDF where ZPL was asked', (_req, res) => sendJson(res, 200, { label: pdfBase64 }), /ZPL/],
  ];
  it.each(cases)('%s is MALFORMED_RESPONSE, not retried', async (_name, script, reason) => {
    const { server, api } = await setup(script);
    const error = await failure(api.getLabel('ORD-1', { format: 'zpl' }));
    expect(error.code).toBe('MALFORMED_RESPONSE');
    expect(error.message).toMatch(reason);
    expect(server.requests).toHaveLength(1);
  });

  it('an empty bundle label list is MALFORMED_RESPONSE: no label may go missing silently', async () => {
    const { api } = await setup((_req, res) => sendJson(res, 200, []));
    expect((await failure(api.getBundleLabels('BND-9'))).code).toBe('MALFORMED_RESPONSE');
  });

  it('one damaged PDF in a bundle fails the whole bundle', async () => {
    const { api } = await setup((_req, res) => sendJson(res, 200, [{ label: pdfBase64 }, { label: zplBase64 }]));
    const error = await failure(api.getBundleLabels('BND-9'));
    expect(error.message).toMatch(/label 2 of bundle BND-9/);
  });

  it('an answer beyond the size limit is refused', async () => {
    const { api } = await setup((_req, res) => sendJson(res, 200, { label: 'A'.repeat(200_000) }), { maxResponseBytes: 64 * 1024 });
    expect((await failure(api.getLabel('ORD-1', { format: 'zpl' }))).code).toBe('MALFORMED_RESPONSE');
  });

  it('an unreadable answer to POST /orders is OUTCOME_UNKNOWN, because the order was probably created', async () => {
    const { server, api } = await setup((_req, res) => sendJson(res, 201, { id: 1 }));
    const error = await failure(api.createOrder({ locationId: '101', orderRef: 'REF-9', deliveryName: 'Ada', deliveryAddress: address }));
    expect(error.code).toBe('OUTCOME_UNKNOWN');
    expect(error.message).toMatch(/probably created/);
    expect(server.requests).toHaveLength(1);
  });
});

describe('the API key stays secret', () => {
  it('is absent from every error and every log line, whatever the failure', async () => {
    const { api, logLines } = await setup((req, res, raw) => {
      // A hostile or buggy service echoing the key back in its messages.
      const echoed = String(req.headers['api-key']);
      if (req.url.pathname.startsWith('/orders/check')) sendJson(res, 400, { statusCode: 400, message: [`key ${echoed} invalid`] });
      else if (req.url.pathname.startsWith('/coverage')) sendJson(res, 406, { statusCode: 406, message: `no ${echoed}` });
      else if (req.url.pathname === '/orders') sendJson(res, 500, { message: echoed });
      else if (req.url.pathname.startsWith('/orders/cancel')) raw.socket.destroy();
      else sendJson(res, 401, { statusCode: 401, message: echoed });
    }, { retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 } });

    const errors = await Promise.all([
      failure(api.checkAddress('101', { deliveryAddress: address })),
      failure(api.coverage('101')),
      failure(api.createOrder({ locationId: '101', deliveryName: 'Ada', deliveryAddress: address })),
      failure(api.cancelOrder('ORD-1')),
      failure(api.getLabel('ORD-1', { format: 'zpl' })),
    ]);
    expect(errors.map((e) => e.code)).toEqual(['VALIDATION', 'PICKUP_POINT_REJECTED', 'OUTCOME_UNKNOWN', 'NETWORK', 'KEY_REJECTED']);
    for (const error of errors) {
      expect(inspect(error, { depth: 10, showHidden: true })).not.toContain(apiKey);
      expect(JSON.stringify(error.toData())).not.toContain(apiKey);
    }
    expect(logLines.length).toBeGreaterThan(5);
    expect(logLines.join('\n')).not.toContain(apiKey);
    expect(logLines.join('\n')).not.toMatch(/api-key/i);
  });

  it('is read per call, so a key changed in the keychain is used at once', async () => {
    let key = 'sk_first_key';
    const server = await startScriptedServer((_req, res) => sendJson(res, 200, { NL: ['1011'] }));
    servers.push(server);
    const api = createDeliveryClient({ baseUrl: server.baseUrl, getApiKey: async () => key });
    closers.push(() => api.close());
    await api.coverage('101');
    key = 'sk_second_key';
    await api.coverage('101');
    expect(server.requests.map((r) => r.headers['api-key'])).toEqual(['sk_first_key', 'sk_second_key']);
  });

  it('a missing key sends nothing', async () => {
    const { server, api } = await setup(() => undefined, { getApiKey: async () => null });
    expect((await failure(api.getLabel('ORD-1', { format: 'zpl' }))).code).toBe('KEY_MISSING');
    expect((await failure(api.createOrder({ locationId: '101', deliveryName: 'Ada', deliveryAddress: address }))).code).toBe('KEY_MISSING');
    expect(server.requests).toHaveLength(0);
  });

  it('an invalid request sends nothing', async () => {
    const { server, api } = await setup(() => undefined);
    expect((await failure(api.createOrder({ locationId: '101', deliveryName: '', deliveryAddress: address }))).code).toBe('VALIDATION');
    expect((await failure(api.getLabel('ORD-1', { format: 'zpl', printSize: 'A4' } as never))).code).toBe('VALIDATION');
    expect(server.requests).toHaveLength(0);
  });
});
