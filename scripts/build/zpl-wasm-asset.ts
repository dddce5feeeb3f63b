import type { Plugin } from 'vite';

/** The module of zpl-renderer-js that inlines Zebrash's WebAssembly as base64. */
const packageModule = /[\\/]zpl-renderer-js[\\/]dist[\\/]index\.esm\.js$/;
/** A WebAssembly module in base64 starts with its magic number and version: "AGFzbQ" is "\0asm". */
const inlinedWasm = /(["'`])(AGFzbQ[A-Za-z0-9+/=]+)\1/;
/** The one place the package compiles those bytes: `WebAssembly.instantiate(bytes, imports)`. */
const instantiateFromBytes = /WebAssembly\.instantiate\(([\w$]+),([\w$]+)\)/;
const placeholder = '__ZPL_RENDERER_WASM__';

/**
 * Serves the ZPL preview's WebAssembly (zpl-renderer-js, about 7 MB) as a file of its own,
 * compiled while it downloads (`WebAssembly.instantiateStreaming`), instead of as 9.4 MB of base64
 * inside the preview worker's script that the worker parses, decodes byte by byte and only then
 * compiles. The first preview takes half the processor time, and an Electron window can keep the
 * compiled module in its code cache. Fails the build, saying why, when the package no longer has
 * the shape this relies on.
 */
export function zplWasmAsset(): Plugin {
  let reference: string | null = null;
  return {
    name: 'zpl-wasm-asset',
    transform(code, id) {
      if (!packageModule.test(id)) return null;
      const wasm = inlinedWasm.exec(code);
      const instantiate = instantiateFromBytes.exec(code);
      if (!wasm || !instantiate) {
        const missing = !wasm ? 'its inlined WebAssembly (a base64 string starting "AGFzbQ")' : 'its call WebAssembly.instantiate(bytes, imports)';
        throw new Error(`zpl-renderer-js no longer has ${missing}: scripts/build/zpl-wasm-asset.ts must follow the package's new shape.`);
      }
      reference = this.emitFile({ type: 'asset', name: 'zpl-renderer.wasm', source: Buffer.from(wasm[2]!, 'base64') });
      return {
        // Replaced by functions: a `$` in the package's names is not a replacement pattern.
        code: code
          .replace(wasm[0], () => `${wasm[1]}${wasm[1]}`)
          .replace(instantiate[0], () => `WebAssembly.instantiateStreaming(fetch(new URL(${JSON.stringify(placeholder)},self.location.href)),${instantiate[2]})`),
        map: null,
      };
    },
    renderChunk(code) {
      if (!reference || !code.includes(placeholder)) return null;
      // The worker and the module sit side by side in assets/: the worker asks for it by its own address.
      const fileName = this.getFileName(reference).split('/').pop()!;
      return { code: code.replaceAll(placeholder, fileName), map: null };
    },
  };
}
