// The import rules dependency-cruiser checks on src/main (docs/architecture.md, "The layers of
// printing"): no import cycle anywhere in src/main, and printing built in layers, each importing
// only the layers below it. Every rule is an error. `npm run graph` checks them and draws the
// printing folders with their arrows into docs/printing-graph.md.
//
// A layer lists whole folders of src/main/printing, and the files at its top level one by one, so
// a folder does one job. The graph script (scripts/printing-graph.ts) reads the layers back from
// the rules named `printing-layer-…`, bottom first, from each rule's `from.path`, and adds the one
// check the tool cannot make: two boxes of the picture (a folder, a top-level file) that import
// each other are a cycle even when no two files are.

const printing = 'src/main/printing/';
const folder = (name) => `^${printing}${name}/`;
const file = (name) => `^${printing}${name.replace(/\./g, '\\.')}$`;

// What calls printing: the composition root builds it, the handlers and hosts call it. Printing
// never reaches back up to them.
const callers = ['^src/main/composition\\.ts$', '^src/main/(composition|handlers|web-host|cli|electron)/'];

const layers = [
  {
    name: 'devices',
    paths: [folder('transports'), folder('raster'), folder('discovery')],
    why: 'Bytes to and from a printer (TCP 9100, USB, CUPS, the Windows spooler), a PDF drawn as a Zebra image, Zebras found on the network. They know nothing of labels, printers on record, runs or the store, so the queue, the printer check and the settings screen share one connection per printer.',
  },
  {
    name: 'labels',
    paths: [file('label-route.ts'), file('test-label.ts'), file('scanner-check-label.ts')],
    why: 'What an A6 label is and which way it goes to a printer of a given resolution and width, and the labels the station draws itself: plain knowledge that the printer records, the check and the runs all read.',
  },
  {
    name: 'records',
    paths: [file('printers.ts'), file('printer-leases.ts'), folder('journal'), file('printed-label.ts')],
    why: "Printing's rows in the store: the printers on record, which bench drives which printer, the journal of runs and labels, and what a journal row says about how its label was printed. A row outlives any connection and any run, so records know no device and no queue.",
  },
  {
    name: 'printer-status',
    paths: [folder('status'), file('check.ts')],
    why: 'What a printer says about itself (status, identity, its roll, the check when it is added or tested), asked over a transport and remembered against the printers on record. The queue and runs ask it; it never drives them.',
  },
  {
    name: 'queue',
    paths: [folder('queue')],
    why: "One queue per printer: sending a label at a time, the printer's status after each, the proof a label came out, the marks that tell a restarted printer. It pulls labels through its LabelSource interface, so it knows no run and no journal.",
  },
  {
    name: 'runs',
    paths: [folder('runs')],
    why: 'Runs of labels: fetching their documents ahead, feeding the queues, writing each step to the journal, who owns a run, its controls and read models. The features plan runs and hand them over; the runs never call the features back.',
  },
  {
    name: 'feature',
    paths: [file('printing-core.ts'), file('single-print.ts'), file('bundle-print.ts'), file('label-preview.ts'), file('sandbox-printer.ts'), folder('settings'), folder('offline')],
    why: 'What the handlers call: the scanned label, the bundle run, the preview, printer settings, local-only printing, the sandbox\'s printer. The composition root builds them and handlers call them; they never import either.',
  },
];

const layerRules = layers.map((layer, index) => ({
  name: `printing-layer-${layer.name}`,
  severity: 'error',
  comment: `${layer.why} It imports no layer above it, nor the composition root, the handlers or the hosts.`,
  from: { path: layer.paths },
  to: { path: [...layers.slice(index + 1).flatMap((above) => above.paths), ...callers] },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'A cycle makes two modules one: neither can be understood, tested or moved alone, and which loads first decides what the other sees. Type-only imports count, since they tie the design together as much.',
      from: { path: '^src/main/' },
      to: { circular: true },
    },
    {
      name: 'printing-unlayered',
      severity: 'error',
      comment: 'Every file of printing belongs to a layer, so a new folder or top-level file is placed on purpose before anything imports it.',
      from: {},
      to: { path: `^${printing}`, pathNot: layers.flatMap((layer) => layer.paths) },
    },
    ...layerRules,
  ],
  options: {
    includeOnly: '^src/',
    // Type-only imports are dependencies of the design too (a cycle through types is still a cycle).
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.node.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
