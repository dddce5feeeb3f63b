import type { LabelSize, PreviewPage } from './preview-page';
import { ZplRenderResponseSchema, type ZplRenderRequest } from './worker-protocol';

export interface ZplRenderer {
  render(zpl: string, size: LabelSize): Promise<PreviewPage[]>;
  dispose(): void;
}

/** Renders ZPL in the preview worker, one request at a time per id; the worker is started on the first render. */
export function createZplRenderer(createWorker: () => Worker): ZplRenderer {
  let worker: Worker | null = null;
  let nextId = 1;
  const pending = new Map<number, { resolve: (pngs: string[]) => void; reject: (error: Error) => void }>();

  const failAll = (message: string) => {
    for (const { reject } of pending.values()) reject(new Error(message));
    pending.clear();
  };

  const start = (): Worker => {
    if (worker) return worker;
    const started = createWorker();
    started.addEventListener('message', (event: MessageEvent<unknown>) => {
      const response = ZplRenderResponseSchema.safeParse(event.data);
      if (!response.success) return;
      const waiting = pending.get(response.data.id);
      if (!waiting) return;
      pending.delete(response.data.id);
      if (response.data.ok) waiting.resolve(response.data.pngs);
      else waiting.reject(new Error(response.data.message));
    });
    started.addEventListener('error', (event) => {
      failAll(event.message || 'The preview worker could not start.');
      started.terminate();
      worker = null;
    });
    worker = started;
    return started;
  };

  const render = async (zpl: string, size: LabelSize): Promise<PreviewPage[]> => {
    const id = nextId++;
    const request: ZplRenderRequest = { id, zpl, ...size };
    const pngs = await new Promise<string[]>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      start().postMessage(request);
    });
    const width = Math.round(size.widthMm * size.dpmm);
    const height = Math.round(size.heightMm * size.dpmm);
    return pngs.map((png) => ({ src: `data:image/png;base64,${png}`, width, height }));
  };

  return {
    render,
    dispose() {
      failAll('The preview was closed.');
      worker?.terminate();
      worker = null;
    },
  };
}
