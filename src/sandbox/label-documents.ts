/**
 * Label documents of orders, ready to send: `{ label }` bodies with the base64 PDF or ZPL, cached
 * because label fetches are the sandbox's hot path (a station fetches on every scan and reprint).
 * A label's content never changes after creation except its "n of m" when a bundle grows, which
 * is part of the cache key.
 */
import type { Orientation } from '../shared/api/schemas';
import type { LabelData } from './labels/label-data';
import type { PdfPrintSize } from './labels/pdf-options';
import { renderZplLabel } from './labels/zpl';
import { displayPostalCode } from './geo/postal-codes';
import type { Bundle, Company, EnvironmentState, Order } from './world/types';

export interface LabelRequest {
  format: 'pdf' | 'zpl';
  orientation: Orientation;
  printSize: PdfPrintSize;
}

export interface LabelDocuments {
  /** The JSON body `{"label":"<base64>"}` of one order's label. */
  single(env: EnvironmentState, order: Order, request: LabelRequest): Promise<Buffer>;
  /** The JSON body `[{"label":"<base64 PDF>"}, ...]` of a bundle: one merged PDF per `bundleChunk` orders. */
  bundle(env: EnvironmentState, bundle: Bundle, request: Omit<LabelRequest, 'format'>): Promise<Buffer>;
  /** Serve `document` as the order's ZPL label from now on (a carrier's own ZPL, set through the control API). */
  supply(env: EnvironmentState, order: Order, document: Buffer, options?: { pdf?: boolean }): void;
  /** The order's label was supplied as ZPL only: there is no PDF of it. */
  zplOnly(env: EnvironmentState, order: Order): boolean;
  clear(): void;
}

/** The PDF drawing and pdf-lib under it, loaded with the first PDF asked for: most sessions ask for ZPL only. */
const pdfLabels = () => import('./labels/pdf');

/** Orders per merged PDF in a bundle answer (bundles larger than this get several list items). */
export const bundleChunk = 50;
const cacheLimit = 5_000;

export function labelData(env: EnvironmentState, order: Order): LabelData {
  const company: Company | undefined = env.companies.get(order.companyId);
  const bundle = env.bundles.get(order.bundle.bundleId);
  const index = bundle ? bundle.orderIds.indexOf(order.orderId) + 1 : 1;
  const count = bundle ? bundle.orderIds.length : 1;
  return {
    orderId: order.orderId,
    orderRef: order.orderRef || order.orderId,
    barcode: order.barcode,
    deliveryName: order.deliveryName,
    deliveryAddress: order.addressLine,
    postalCode: displayPostalCode(order.address.countryCode, order.address.postalCode),
    city: order.address.city,
    countryCode: order.address.countryCode,
    senderName: company?.name ?? 'Delivery Service sandbox',
    bundle: { index: Math.max(1, index), count: Math.max(1, count), bundleId: order.bundle.bundleId },
    createdAt: new Date(order.createdAt).toISOString(),
    trackingUrl: order.trackingUrl,
  };
}

export function createLabelDocuments(): LabelDocuments {
  // Insertion-ordered Map as an LRU: a hit is re-inserted at the end, the oldest entry is evicted.
  const cache = new Map<string, Promise<Buffer>>();

  const remember = (key: string, make: () => Promise<Buffer>): Promise<Buffer> => {
    const hit = cache.get(key);
    if (hit) {
      cache.delete(key);
      cache.set(key, hit);
      return hit;
    }
    const made = make();
    cache.set(key, made);
    // A failed render is not cached, so the next request tries again.
    made.catch(() => cache.delete(key));
    if (cache.size > cacheLimit) cache.delete(cache.keys().next().value!);
    return made;
  };

  // Documents the operator supplied, served as they are: env|orderId → ZPL bytes.
  const supplied = new Map<string, Buffer>();
  const withoutPdf = new Set<string>();

  const encode = (document: Uint8Array | string) => {
    const bytes = typeof document === 'string' ? Buffer.from(document, 'utf8') : Buffer.from(document.buffer, document.byteOffset, document.byteLength);
    return `{"label":"${bytes.toString('base64')}"}`;
  };

  return {
    single(env, order, request) {
      const own = request.format === 'zpl' ? supplied.get(`${env.name}|${order.orderId}`) : undefined;
      if (own) return Promise.resolve(Buffer.from(encode(own)));
      const data = labelData(env, order);
      const key = [env.name, order.orderId, request.format, request.orientation, request.format === 'pdf' ? request.printSize : '', data.bundle?.index, data.bundle?.count].join('|');
      return remember(key, async () => {
        const document = request.format === 'zpl' ? renderZplLabel(data, request.orientation) : await (await pdfLabels()).renderPdfLabels([data], { orientation: request.orientation, printSize: request.printSize });
        return Buffer.from(encode(document));
      });
    },
    bundle(env, bundle, request) {
      const key = [env.name, 'bundle', bundle.bundleId, bundle.orderIds.length, request.orientation, request.printSize].join('|');
      return remember(key, async () => {
        const orders = bundle.orderIds.map((id) => env.orders.get(id)).filter((order): order is Order => order !== undefined);
        const chunks: Uint8Array[] = [];
        for (let start = 0; start < orders.length; start += bundleChunk) {
          const data = orders.slice(start, start + bundleChunk).map((order) => labelData(env, order));
          chunks.push(await (await pdfLabels()).renderPdfLabels(data, request));
        }
        return Buffer.from(`[${chunks.map(encode).join(',')}]`);
      });
    },
    supply(env, order, document, options = {}) {
      const key = `${env.name}|${order.orderId}`;
      supplied.set(key, document);
      if (options.pdf === false) withoutPdf.add(key);
      else withoutPdf.delete(key);
    },
    zplOnly: (env, order) => withoutPdf.has(`${env.name}|${order.orderId}`),
    clear: () => {
      cache.clear();
      supplied.clear();
      withoutPdf.clear();
    },
  };
}
