import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderZplToPng } from '../../../src/sandbox/labels/render';
import { decodeBarcodesFromPdf, decodeBarcodesFromPng } from '../../support/barcode';
import { pdfPageTexts } from '../../unit/sandbox-labels/pdf-text';
import { newOrder, startHarness, type Harness } from './harness';
import { waitUntil } from '../../support/wait-until';

interface Today {
  orderRef: string;
  orderId: string;
  barcode: string;
  bundleId: string;
  status: string;
  companyName: string;
  deliveryName: string;
  zplAvailable: boolean;
}

let h: Harness;
let today: Today[];
const mm = 72 / 25.4;

beforeAll(async () => {
  h = await startHarness({ pickupPoints: 4000 });
  today = (await h.control('GET', '/environments/test/todays-orders')).body.orders;
});
afterAll(() => h.close());

const noordwind = () => today.filter((o) => o.companyName.startsWith('Noordwind') && o.zplAvailable);
const label = (orderId: string, query = '', key?: string) => h.api('GET', `/orders/label/${orderId}${query}`, key ? { key } : {});
const decoded = (reply: { body: { label: string } }) => Buffer.from(reply.body.label, 'base64');
const pageSize = async (pdf: Buffer) => {
  const doc = await PDFDocument.load(pdf);
  return doc.getPages().map((page) => {
    const { width, height } = page.getSize();
    return { width: Math.round(width / mm), height: Math.round(height / mm) };
  });
};

describe('GET /orders/label/{orderId}', () => {
  it('PDF by default: a landscape A6 document (Noordwind\'s ORIENTATION is landscape)', async () => {
    const order = noordwind()[0]!;
    const reply = await label(order.orderId);
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body)).toEqual(['label']);
    const pdf = decoded(reply);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await pageSize(pdf)).toEqual([{ width: 148, height: 105 }]);
  });

  it('ZPL on request: native 203 dpi ZPL, one ^XA...^XZ format', async () => {
    const order = noordwind()[1]!;
    const zpl = decoded(await label(order.orderId, '?format=zpl')).toString('utf8');
    expect(zpl.startsWith('^XA')).toBe(true);
    expect(zpl.trimEnd().endsWith('^XZ')).toBe(true);
    expect(zpl.match(/\^XA/g)).toHaveLength(1);
    expect(zpl).toContain('landscape');
  });

  it('portrait ZPL carries ^PW839 and ^LL1184', async () => {
    const zpl = decoded(await label(noordwind()[2]!.orderId, '?format=zpl&orientation=portrait')).toString('utf8');
    expect(zpl).toContain('^PW839');
    expect(zpl).toContain('^LL1184');
    expect(zpl).toContain('portrait');
  });

  it('orientation omitted follows the company ORIENTATION setting for ZPL and PDF; an explicit one wins', async () => {
    const cheese = today.find((o) => o.companyName.startsWith('Kaasmakerij') && o.zplAvailable)!;
    // De Vries starts with portrait.
    expect(decoded(await label(cheese.orderId, '?format=zpl', h.key(1))).toString()).toContain('portrait');
    expect(await pageSize(decoded(await label(cheese.orderId, '', h.key(1))))).toEqual([{ width: 105, height: 148 }]);
    expect(decoded(await label(cheese.orderId, '?format=zpl&orientation=landscape', h.key(1))).toString()).toContain('landscape');

    const order = noordwind()[3]!;
    expect(decoded(await label(order.orderId, '?format=zpl')).toString()).toContain('landscape');
    expect((await h.control('PATCH', '/environments/test/companies/noordwind/settings', { orientation: 'portrait' })).status).toBe(200);
    try {
      expect(decoded(await label(order.orderId, '?format=zpl')).toString()).toContain('portrait');
      expect(await pageSize(decoded(await label(order.orderId)))).toEqual([{ width: 105, height: 148 }]);
      expect(decoded(await label(order.orderId, '?format=zpl&orientation=landscape')).toString()).toContain('landscape');
    } finally {
      await h.control('PATCH', '/environments/test/companies/noordwind/settings', { orientation: 'landscape' });
    }
  });

  it('printSize is PDF only: A4 gives an A4 sheet, with zpl it is a 400, unknown values are a 400', async () => {
    const order = noordwind()[4]!;
    expect(await pageSize(decoded(await label(order.orderId, '?printSize=A4')))).toEqual([{ width: 210, height: 297 }]);
    expect(await pageSize(decoded(await label(order.orderId, '?format=pdf&printSize=A6&orientation=portrait')))).toEqual([{ width: 105, height: 148 }]);
    const zpl = await label(order.orderId, '?format=zpl&printSize=A6');
    expect(zpl.body).toEqual({ statusCode: 400, message: ['printSize is only supported with format=pdf'], error: 'Bad Request' });
    expect((await label(order.orderId, '?printSize=Letter')).body.message).toEqual(['printSize must be one of the following values: A6, A4']);
    await h.control('PATCH', '/environments/test/companies/noordwind/settings', { printSize: 'A4' });
    try {
      expect(await pageSize(decoded(await label(order.orderId)))).toEqual([{ width: 210, height: 297 }]);
    } finally {
      await h.control('PATCH', '/environments/test/companies/noordwind/settings', { printSize: 'A6' });
    }
  });

  it('unknown format or orientation is a 400 with the error body', async () => {
    const order = noordwind()[0]!;
    expect((await label(order.orderId, '?format=png')).body).toEqual({ statusCode: 400, message: ['format must be one of the following values: pdf, zpl'], error: 'Bad Request' });
    expect((await label(order.orderId, '?orientation=upside-down')).status).toBe(400);
    expect((await label(order.orderId, '?format=')).status).toBe(400);
  });

  it('ZPL is unavailable when an external carrier supplies the label: PDF still works', async () => {
    const external = today.find((o) => !o.zplAvailable && o.companyName.startsWith('Noordwind'));
    const created = external ?? (await (async () => {
      const points = (await h.api('GET', '/pickup-points?countryCode=NL&postalCode=1017GC&maxResults=100&types=PARCEL_LOCKER')).body.points;
      const locker = points.find((p: { carrierPudoId: string }) => p.carrierPudoId.startsWith('EL'));
      return (await h.api('POST', '/orders', { body: newOrder(h.location(), { pudoId: locker.pudoId }) })).body;
    })());
    const zpl = await label(created.orderId, '?format=zpl');
    expect(zpl.status).toBe(400);
    expect(zpl.body.message[0]).toMatch(/supplied by the carrier/);
    expect((await label(created.orderId, '?format=pdf')).status).toBe(200);
  });

  it('every seeded order of today can be fetched as a label by its company', async () => {
    const keys = new Map(h.sandbox.environments.test.companies.map((c) => [c.name, c.apiKey]));
    for (const order of today) {
      const reply = await label(order.orderId, order.zplAvailable ? '?format=zpl&orientation=landscape' : '', keys.get(order.companyName));
      expect(reply.status, order.orderRef).toBe(200);
    }
  });
});

describe('label documents scan: the barcode read from pixels equals the order\'s barcode', () => {
  it.each(['landscape', 'portrait'] as const)('ZPL %s rendered offline', async (orientation) => {
    const order = noordwind()[5]!;
    const zpl = decoded(await label(order.orderId, `?format=zpl&orientation=${orientation}`)).toString('utf8');
    const png = await renderZplToPng(zpl);
    expect(await decodeBarcodesFromPng(png)).toEqual([{ symbology: 'CODE-128', data: order.barcode }]);
    expect(zpl).toContain(order.orderRef);
    expect(zpl).toContain(order.orderId);
    expect(zpl).toContain(order.deliveryName);
  });

  it.each(['landscape', 'portrait'] as const)('PDF %s rasterised; recipient, address, orderRef and orderId are on it', async (orientation) => {
    const order = noordwind()[6]!;
    const pdf = decoded(await label(order.orderId, `?orientation=${orientation}`));
    expect(await decodeBarcodesFromPdf(pdf)).toEqual([[{ symbology: 'CODE-128', data: order.barcode }]]);
    const text = (await pdfPageTexts(pdf)).join('\n');
    const record = (await h.control('GET', `/environments/test/orders/${order.orderId}`)).body;
    for (const expected of [order.orderRef, order.orderId, order.deliveryName, record.deliveryAddress.split(',')[0]]) expect(text).toContain(expected);
  });
});

describe('GET /orders/label/bundle/{orderBundleId}', () => {
  it('a list of { label }: one merged PDF with a page per order of the bundle, in order', async () => {
    const bundleId = [...new Set(noordwind().map((o) => o.bundleId))].find((id) => today.filter((o) => o.bundleId === id).length >= 3)!;
    const members = today.filter((o) => o.bundleId === bundleId);
    const reply = await h.api('GET', `/orders/label/bundle/${bundleId}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual([{ label: expect.any(String) }]);
    const pdf = decoded({ body: reply.body[0] });
    expect(await decodeBarcodesFromPdf(pdf, { dpi: 150 })).toEqual(members.map((m) => [{ symbology: 'CODE-128', data: m.barcode }]));
    expect((await h.api('GET', `/orders/label/bundle/${bundleId}?format=pdf`)).status).toBe(200);
  });

  it('format=zpl is a 400; any other format too', async () => {
    const bundleId = noordwind()[0]!.bundleId;
    expect((await h.api('GET', `/orders/label/bundle/${bundleId}?format=zpl`)).body).toEqual({
      statusCode: 400,
      message: ['format zpl is not supported for bundle labels; only pdf'],
      error: 'Bad Request',
    });
    expect((await h.api('GET', `/orders/label/bundle/${bundleId}?format=txt`)).status).toBe(400);
  });
});

describe('labels not generated yet, and the draft → expected move', () => {
  it('a label requested in the first moments after creation is a 404 with Retry-After; then it is there', async () => {
    await h.control('PATCH', '/settings', { faults: { labelDelayMs: 1200 } });
    try {
      const created = (await h.api('POST', '/orders', { body: newOrder(h.location()) })).body;
      const early = await label(created.orderId, '?format=zpl');
      expect(early.status).toBe(404);
      expect(early.body).toEqual({ statusCode: 404, message: expect.stringContaining('not generated yet'), error: 'Not Found' });
      expect(Number(early.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      const bundle = await h.api('GET', `/orders/label/bundle/${created.orderBundle.bundleId}`);
      expect(bundle.status).toBe(404);
      expect((await h.control('GET', `/environments/test/orders/${created.orderId}`)).body.status).toBe('draft');
      await waitUntil(async () => (await label(created.orderId, '?format=zpl')).status === 200, 'the label generated', 10_000, 100);
      expect((await h.api('GET', `/orders/label/bundle/${created.orderBundle.bundleId}`)).status).toBe(200);
    } finally {
      await h.control('PATCH', '/settings', { faults: { labelDelayMs: 0 } });
    }
  });

  it('the not-ready status is a knob: 425 Too Early when set so', async () => {
    await h.control('PATCH', '/settings', { faults: { labelDelayMs: 5000, labelNotReadyStatus: 425 } });
    try {
      const created = (await h.api('POST', '/orders', { body: newOrder(h.location()) })).body;
      const early = await label(created.orderId);
      expect(early.status).toBe(425);
      expect(early.body.error).toBe('Too Early');
    } finally {
      await h.control('PATCH', '/settings', { faults: { labelDelayMs: 0, labelNotReadyStatus: 404 } });
    }
  });

  it('fetching a label moves a draft order to expected (label printed); later fetches leave it', async () => {
    const created = (await h.api('POST', '/orders', { body: newOrder(h.location()) })).body;
    expect((await h.control('GET', `/environments/test/orders/${created.orderId}`)).body.status).toBe('draft');
    await label(created.orderId, '?format=zpl');
    expect((await h.control('GET', `/environments/test/orders/${created.orderId}`)).body.status).toBe('expected');
    await h.control('POST', `/environments/test/orders/${created.orderId}/status`, { status: 'in_transit' });
    expect((await label(created.orderId)).status).toBe(200);
    expect((await h.control('GET', `/environments/test/orders/${created.orderId}`)).body.status).toBe('in_transit');
  });
});
