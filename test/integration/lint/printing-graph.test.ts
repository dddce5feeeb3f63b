import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { printingGraph, printingGraphPage } from '../../../scripts/printing-graph';

const script = resolve('scripts/printing-graph.ts');
const folders: string[] = [];

/** A station tree of its own in a temp folder: each file's path under it and its text. */
function stationTree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'printing-graph-'));
  folders.push(root);
  writeFileSync(join(root, 'tsconfig.node.json'), JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'bundler', strict: true } }));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** Printing in its layers: a transport, a queue on it, a run on the queue, the scanned label on the run. */
const layered = {
  'src/main/printing/transports/transport.ts': 'export const send = (bytes: string) => bytes.length;\n',
  'src/main/printing/queue/printer-queue.ts': "import { send } from '../transports/transport';\nexport const queue = () => send('^XA^XZ');\n",
  'src/main/printing/runs/print-run.ts': "import { queue } from '../queue/printer-queue';\nexport const run = () => queue();\n",
  'src/main/printing/single-print.ts': "import { run } from './runs/print-run';\nexport const printScan = () => run();\n",
};

const run = (root: string, ...args: string[]) => spawnSync(resolve('node_modules/.bin/tsx'), [script, ...args], { cwd: root, encoding: 'utf8' });

describe('the import rules of src/main and the graph of printing', () => {
  it('lets each layer import the layers below it, and draws one box per folder or top-level file', async () => {
    const graph = await printingGraph(stationTree(layered));
    expect(graph.violations).toEqual([]);
    expect(graph.arrows.map((arrow) => `${arrow.from} → ${arrow.to}`)).toEqual(['queue/ → transports/', 'runs/ → queue/', 'single-print.ts → runs/']);
    expect(graph.layers.map((layer) => [layer.name, layer.units])).toEqual([
      ['devices', ['transports/']],
      ['labels', []],
      ['records', []],
      ['printer-status', []],
      ['queue', ['queue/']],
      ['runs', ['runs/']],
      ['feature', ['single-print.ts']],
    ]);
    const page = printingGraphPage(graph);
    expect(page).toContain('  queue_ --> transports_\n');
    expect(page).toContain('## Rules broken\n\nNone.\n');
  });

  it('refuses an import from a lower layer to a higher one, naming the files, and dots its arrow in the picture', async () => {
    const graph = await printingGraph(
      stationTree({ ...layered, 'src/main/printing/transports/usb.ts': "import { run } from '../runs/print-run';\nexport const usb = run;\n" }),
    );
    expect(graph.violations).toEqual([{ rule: 'printing-layer-devices', from: 'src/main/printing/transports/usb.ts', to: 'src/main/printing/runs/print-run.ts' }]);
    const page = printingGraphPage(graph);
    expect(page).toContain('  transports_ -.->|printing-layer-devices| runs_\n');
    expect(page).toContain('- `printing-layer-devices`: `src/main/printing/transports/usb.ts` → `src/main/printing/runs/print-run.ts`');
  });

  it('refuses printing importing the handlers that call it', async () => {
    const graph = await printingGraph(
      stationTree({
        ...layered,
        'src/main/handlers/printing.ts': "import { printScan } from '../printing/single-print';\nexport const handlers = { printScan };\n",
        'src/main/printing/queue/handlers-reach.ts': "import type { handlers } from '../../handlers/printing';\nexport type Handlers = typeof handlers;\n",
      }),
    );
    expect(graph.violations).toEqual([{ rule: 'printing-layer-queue', from: 'src/main/printing/queue/handlers-reach.ts', to: 'src/main/handlers/printing.ts' }]);
  });

  it('refuses an import cycle anywhere in src/main, through type-only imports too', async () => {
    const graph = await printingGraph(
      stationTree({
        ...layered,
        'src/main/orders/order-index.ts': "import type { Lookup } from './order-lookup';\nexport interface Index { lookup: Lookup }\n",
        'src/main/orders/order-lookup.ts': "import type { Index } from './order-index';\nexport interface Lookup { index: Index }\n",
      }),
    );
    expect(graph.violations).toEqual([{ rule: 'no-cycle', from: 'src/main/orders/order-index.ts', to: 'src/main/orders/order-lookup.ts' }]);
  });

  it('refuses two boxes of one layer that import each other though no two files do', async () => {
    const graph = await printingGraph(
      stationTree({
        ...layered,
        'src/main/printing/journal/journal-types.ts': 'export interface JournalRow { id: number }\n',
        'src/main/printing/journal/print-journal.ts': "import type { PrinterRecord } from '../printers';\nexport const rowsFor = (printer: PrinterRecord) => [printer.id];\n",
        'src/main/printing/printers.ts': "import type { JournalRow } from './journal/journal-types';\nexport interface PrinterRecord { id: string; last?: JournalRow }\n",
      }),
    );
    expect(graph.violations).toEqual([
      { rule: 'printing-folder-cycle', from: 'src/main/printing/journal/print-journal.ts', to: 'src/main/printing/printers.ts' },
      { rule: 'printing-folder-cycle', from: 'src/main/printing/printers.ts', to: 'src/main/printing/journal/journal-types.ts' },
    ]);
  });

  it('refuses an import of a printing file that belongs to no layer', async () => {
    const graph = await printingGraph(
      stationTree({
        ...layered,
        'src/main/printing/newcomer.ts': 'export const newcomer = 1;\n',
        'src/main/printing/runs/uses-newcomer.ts': "import { newcomer } from '../newcomer';\nexport const used = newcomer;\n",
      }),
    );
    expect(graph.violations).toEqual([{ rule: 'printing-unlayered', from: 'src/main/printing/runs/uses-newcomer.ts', to: 'src/main/printing/newcomer.ts' }]);
  });

  it('the command exits non-zero on a broken rule and names it, and zero when the rules hold', () => {
    const broken = run(
      stationTree({ ...layered, 'src/main/printing/queue/uses-run.ts': "import { run } from '../runs/print-run';\nexport const again = run;\n" }),
      '--check',
    );
    expect(broken.status).toBe(1);
    expect(broken.stderr).toContain('error printing-layer-queue: src/main/printing/queue/uses-run.ts → src/main/printing/runs/print-run.ts');

    const holding = run(stationTree(layered), '--check');
    expect(holding.status).toBe(0);
    expect(holding.stdout).toContain('import rules hold');
  });
});
