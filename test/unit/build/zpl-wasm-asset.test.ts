import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { zplWasmAsset } from '../../../scripts/build/zpl-wasm-asset';

const packagePath = createRequire(import.meta.url).resolve('zpl-renderer-js').replace(/index\.cjs\.js$/, 'index.esm.js');

interface Emitted {
  name: string;
  source: Uint8Array;
}

/** Runs the plugin's two hooks the way the worker's build does, with the build's emitFile and getFileName. */
function build(code: string, id: string): { transformed: string | null; rendered: string | null; emitted: Emitted[] } {
  const plugin = zplWasmAsset();
  const emitted: Emitted[] = [];
  const context = {
    emitFile: (file: Emitted) => String(emitted.push(file) - 1),
    getFileName: (reference: string) => `assets/zpl-renderer-Ab12Cd34.wasm#${reference}`,
  };
  // The hooks are plain functions using only these two of the build's context methods.
  const transform = plugin.transform as unknown as (this: typeof context, code: string, id: string) => { code: string } | null;
  const renderChunk = plugin.renderChunk as unknown as (this: typeof context, code: string) => { code: string } | null;
  const transformed = transform.call(context, code, id)?.code ?? null;
  const rendered = transformed === null ? null : (renderChunk.call(context, transformed)?.code ?? null);
  return { transformed, rendered, emitted };
}

describe('the ZPL preview WebAssembly as a file of its own', () => {
  it("takes the package's inlined module out of the worker's script and compiles it as it downloads", () => {
    const { rendered, emitted } = build(readFileSync(packagePath, 'utf8'), packagePath);
    expect(emitted).toHaveLength(1);
    // The module itself: the WebAssembly magic number and version 1.
    expect([...emitted[0]!.source.subarray(0, 8)]).toEqual([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
    expect(emitted[0]!.source.length).toBeGreaterThan(5_000_000);
    expect(rendered).not.toContain('AGFzbQ');
    expect(rendered!.length).toBeLessThan(200_000);
    expect(rendered).toContain('WebAssembly.instantiateStreaming(fetch(new URL("zpl-renderer-Ab12Cd34.wasm#0",self.location.href)),');
    expect(rendered).not.toMatch(/WebAssembly\.instantiate\(/);
  });

  it('leaves every other module alone', () => {
    expect(build('const wasm = "AGFzbQEAAAA="; WebAssembly.instantiate(bytes, imports);', '/app/src/renderer/src/preview/zpl.worker.ts').transformed).toBeNull();
  });

  it('fails the build, naming what is missing, when the package changes its shape', () => {
    const id = '/app/node_modules/zpl-renderer-js/dist/index.esm.js';
    expect(() => build('const wasm = await fetch("renderer.wasm"); WebAssembly.instantiate(wasm, imports);', id)).toThrow(
      'zpl-renderer-js no longer has its inlined WebAssembly (a base64 string starting "AGFzbQ"): scripts/build/zpl-wasm-asset.ts must follow the package\'s new shape.',
    );
    expect(() => build('const wasm = "AGFzbQEAAAA="; WebAssembly.compileStreaming(fetch(url));', id)).toThrow(/no longer has its call WebAssembly\.instantiate\(bytes, imports\)/);
  });
});
