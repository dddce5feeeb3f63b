// Draws the app icon from icon.svg: icon.png (1024 px, from which electron-builder derives the
// Windows .ico and the macOS .icns) and icons/<size>x<size>.png for Linux desktops.
// Run with `node resources/generate-icons.mjs` after changing icon.svg; the outputs are committed.
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const source = await loadImage(readFileSync(join(here, 'icon.svg')));

const render = (size) => {
  const canvas = createCanvas(size, size);
  canvas.getContext('2d').drawImage(source, 0, 0, size, size);
  return canvas.encode('png');
};

writeFileSync(join(here, 'icon.png'), await render(1024));
mkdirSync(join(here, 'icons'), { recursive: true });
for (const size of [16, 24, 32, 48, 64, 128, 256, 512]) {
  writeFileSync(join(here, 'icons', `${size}x${size}.png`), await render(size));
}
console.log('wrote resources/icon.png and resources/icons/*.png');
