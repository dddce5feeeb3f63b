/**
 * A ZPL preview true to the label: the document passes the same gate as on its way to a printer
 * (prepareZplForPrinter), so a label the station would refuse is shown as refused, never drawn;
 * each printed label gets a page of its own size (^PW/^LL, A6 when it names none), moved by ^LT
 * and turned by ^POI, which the renderer itself ignores.
 */
import { prepareZplForPrinter, zplRefusalError } from '../../../shared/zebra/zpl-prepare';
import { pageSizeKey, zplPages, type ZplPage } from '../../../shared/zebra/zpl-page';
import { zplTextForRenderer } from '../../../shared/zebra/zpl-preview-text';
import type { LabelSize, PreviewPage } from './preview-page';
import type { ZplRenderer } from './zpl-renderer-client';

/** Loaded with the preview, like the rest of ZPL reading: whether a document is ZPL at all. */
export { holdsZplFormat } from '../../../shared/zebra/zpl-document';

export interface ZplPreviewPage extends PreviewPage {
  widthMm: number;
  heightMm: number;
}

export type ZplPreview =
  | { ok: true; pages: ZplPreviewPage[]; pageCount: number }
  | { ok: false; problem: 'refused' | 'damaged'; message: string; details: string[] };

export async function previewZpl(renderer: ZplRenderer, bytes: Uint8Array, size: LabelSize, maxPages: number): Promise<ZplPreview> {
  const prepared = prepareZplForPrinter(bytes);
  if (!prepared.ok) {
    const details = zplRefusalError(prepared).details ?? [];
    return prepared.kind === 'changes-printer'
      ? { ok: false, problem: 'refused', message: `The station would not print this label: ${prepared.reason}.`, details }
      : { ok: false, problem: 'damaged', message: `This is not a ZPL label a printer can print: ${prepared.reason}.`, details };
  }
  const pages = zplPages(prepared.layouts, size);
  const zpl = zplTextForRenderer(prepared.bytes);

  // The renderer draws every printed format at one size per call: one call per distinct size,
  // each page taking its own format's image from the call of its size.
  const shown = pages.slice(0, maxPages);
  const renders = new Map<string, Promise<PreviewPage[]>>();
  const images: PreviewPage[] = [];
  for (const [index, page] of shown.entries()) {
    const key = pageSizeKey(page);
    let rendered = renders.get(key);
    if (!rendered) {
      rendered = renderer.render(zpl, { widthMm: page.widthMm, heightMm: page.heightMm, dpmm: page.dpmm });
      renders.set(key, rendered);
    }
    const all = await rendered;
    // A renderer that read the formats differently than the printer would: show what it drew, in order.
    const image = all.length === pages.length ? all[index] : all[index < all.length ? index : all.length - 1];
    if (image) images.push(await placeOnLabel(image, page));
  }
  return {
    ok: true,
    pages: images.map((image, index) => ({ ...image, widthMm: shown[index]?.widthMm ?? size.widthMm, heightMm: shown[index]?.heightMm ?? size.heightMm })),
    pageCount: pages.length,
  };
}

/** ^LT moves the printed image down (or up) on the label; ^POI turns the label by 180°. */
async function placeOnLabel(image: PreviewPage, page: ZplPage): Promise<PreviewPage> {
  if (page.topDots === 0 && !page.inverted) return image;
  const picture = new Image();
  picture.src = image.src;
  await picture.decode();
  const canvas = document.createElement('canvas');
  canvas.width = image.width;
  canvas.height = image.height;
  const context = canvas.getContext('2d');
  if (!context) return image;
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  if (page.inverted) {
    context.translate(canvas.width, canvas.height);
    context.rotate(Math.PI);
  }
  context.drawImage(picture, 0, page.topDots);
  return { ...image, src: canvas.toDataURL('image/png') };
}
