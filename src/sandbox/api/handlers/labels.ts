/** GET /orders/label/{orderId} and GET /orders/label/bundle/{orderBundleId}. */
import { z } from 'zod';
import { LabelFormatSchema, OrientationSchema } from '../../../shared/api/schemas';
import { pdfPrintSizes, PdfPrintSizeSchema } from '../../labels/pdf-options';
import { HttpError, badRequest } from '../../http/errors';
import { validate } from '../../http/validation';
import type { LabelRequest } from '../../label-documents';
import { externalLabelCarriers } from '../../world/carriers';
import type { Company, Order } from '../../world/types';
import { authorizeBundle, authorizeOrder, type ApiAnswer, type ApiContext } from '../context';


const LabelQuerySchema = z.object({
  format: LabelFormatSchema.optional(),
  orientation: OrientationSchema.optional(),
  printSize: z.enum(pdfPrintSizes).optional(),
});

function labelQuery(query: URLSearchParams): z.infer<typeof LabelQuerySchema> {
  const raw: Record<string, string> = {};
  for (const name of ['format', 'orientation', 'printSize'] as const) {
    const value = query.get(name);
    if (value !== null) raw[name] = value;
  }
  return validate(LabelQuerySchema, raw);
}

function notReady(ctx: ApiContext, readyAt: number, what: string): HttpError {
  const seconds = Math.max(1, Math.ceil((readyAt - ctx.now) / 1000));
  const status = ctx.settings.faults.labelNotReadyStatus;
  const message = `The label of ${what} is not generated yet; retry in ${seconds} s`;
  return new HttpError(status, message, { 'retry-after': String(seconds) });
}

/** A label fetched counts as printed: draft → expected, with its webhook. */
function markPrinted(ctx: ApiContext, orders: Order[]): void {
  for (const order of orders) if (order.status === 'draft') ctx.world.moveOrder(ctx.env, order, 'expected');
}

function companySettings(ctx: ApiContext, companyId: string): Company['settings'] {
  return ctx.env.companies.get(companyId)!.settings;
}

export async function orderLabel(ctx: ApiContext): Promise<ApiAnswer> {
  const order = authorizeOrder(ctx, ctx.params.orderId!);
  const query = labelQuery(ctx.query);
  const format = query.format ?? 'pdf';
  if (format === 'zpl' && query.printSize !== undefined) throw badRequest(['printSize is only supported with format=pdf']);
  if (format === 'zpl' && externalLabelCarriers.includes(order.carrier)) {
    throw badRequest([`format zpl is unavailable for order ${order.orderId}: its label is supplied by the carrier ${order.carrier}; request format=pdf`]);
  }
  if (format === 'pdf' && ctx.labels.zplOnly(ctx.env, order)) {
    throw badRequest([`format pdf is unavailable for order ${order.orderId}: its label exists only as ZPL; request format=zpl`]);
  }
  if (ctx.now < order.labelReadyAt) throw notReady(ctx, order.labelReadyAt, `order ${order.orderId}`);
  const settings = companySettings(ctx, order.companyId);
  const request: LabelRequest = {
    format,
    // When omitted, orientation follows the company's ORIENTATION setting, for PDF and ZPL alike.
    orientation: query.orientation ?? settings.orientation,
    printSize: query.printSize ?? PdfPrintSizeSchema.catch('A6').parse(settings.printSize),
  };
  const raw = await ctx.labels.single(ctx.env, order, request);
  markPrinted(ctx, [order]);
  return { status: 200, raw };
}

export async function bundleLabel(ctx: ApiContext): Promise<ApiAnswer> {
  const bundle = authorizeBundle(ctx, ctx.params.orderBundleId!);
  const format = ctx.query.get('format');
  if (format !== null && format !== 'pdf') {
    throw badRequest([format === 'zpl' ? 'format zpl is not supported for bundle labels; only pdf' : 'format must be one of the following values: pdf']);
  }
  const query = labelQuery(ctx.query);
  const orders = bundle.orderIds.map((id) => ctx.env.orders.get(id)).filter((order): order is Order => order !== undefined);
  const readyAt = Math.max(...orders.map((order) => order.labelReadyAt));
  if (ctx.now < readyAt) throw notReady(ctx, readyAt, `bundle ${bundle.bundleId}`);
  const settings = companySettings(ctx, bundle.companyId);
  const raw = await ctx.labels.bundle(ctx.env, bundle, {
    orientation: query.orientation ?? settings.orientation,
    printSize: query.printSize ?? PdfPrintSizeSchema.catch('A6').parse(settings.printSize),
  });
  markPrinted(ctx, orders);
  return { status: 200, raw };
}
