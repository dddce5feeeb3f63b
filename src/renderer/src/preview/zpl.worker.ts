/**
 * The ZPL preview worker: Zebrash (zpl-renderer-js, 7 MB of WebAssembly, served as a file of its
 * own: scripts/build/zpl-wasm-asset.ts) runs here, off the screen's thread, and is only downloaded
 * when the first preview is asked for.
 */
import { zplToBase64MultipleAsync } from 'zpl-renderer-js';
import { ZplRenderRequestSchema, type ZplRenderResponse } from './worker-protocol';
import { errorText } from '../../../shared/error-text';

const reply = (response: ZplRenderResponse) => self.postMessage(response);

self.addEventListener('message', (event: MessageEvent<unknown>) => {
  const request = ZplRenderRequestSchema.safeParse(event.data);
  if (!request.success) {
    const id = typeof event.data === 'object' && event.data !== null && 'id' in event.data && typeof event.data.id === 'number' ? event.data.id : 0;
    reply({ id, ok: false, message: 'The preview request was not understood.' });
    return;
  }
  const { id, zpl, widthMm, heightMm, dpmm } = request.data;
  zplToBase64MultipleAsync(zpl, widthMm, heightMm, dpmm).then(
    (pngs) => reply(pngs.length > 0 ? { id, ok: true, pngs } : { id, ok: false, message: 'The ZPL holds no label (no ^XA…^XZ).' }),
    (error: unknown) => reply({ id, ok: false, message: errorText(error) }),
  );
});
