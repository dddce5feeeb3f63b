/**
 * The import graph of src/main/printing, checked and drawn (`npm run graph`; `--check` only checks).
 *
 * dependency-cruiser checks src/main against the rules of `.dependency-cruiser.cjs` (no cycle, each
 * layer of printing importing only the layers below it). This script adds what the tool cannot see:
 * printing drawn folder by folder (each top-level file its own box), where two boxes that import
 * each other are a cycle even when no two files are. Since an upward import is already an error,
 * such a cycle can only stand inside one layer. The picture goes to docs/printing-graph.md as a
 * Mermaid chart and as plain text; every rule broken is listed with its files and fails the run.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const repository = join(dirname(fileURLToPath(import.meta.url)), '..');
const printing = 'src/main/printing/';
const layerRulePrefix = 'printing-layer-';

export interface Violation {
  rule: string;
  from: string;
  to: string;
}

export interface Layer {
  name: string;
  why: string;
  /** Folders (`runs/`) and top-level files (`check.ts`) of printing, as the picture names them. */
  units: string[];
}

export interface Arrow {
  from: string;
  to: string;
  /** The file imports that make this arrow. */
  imports: { from: string; to: string }[];
}

export interface PrintingGraph {
  /** Bottom first. */
  layers: Layer[];
  arrows: Arrow[];
  violations: Violation[];
}

/** The box a file of printing is drawn in: its first folder under printing, or the file itself. */
export function unitOf(path: string): string | null {
  if (!path.startsWith(printing)) return null;
  const rest = path.slice(printing.length);
  const slash = rest.indexOf('/');
  return slash === -1 ? rest : rest.slice(0, slash + 1);
}

function asList(path: string | string[] | undefined): string[] {
  if (path === undefined) return [];
  return Array.isArray(path) ? path : [path];
}

/** The layers as the config's `printing-layer-…` rules name them, bottom first. */
function layersOf(rules: IForbiddenRuleType[], units: string[]): Layer[] {
  return rules
    .filter((rule) => rule.name?.startsWith(layerRulePrefix))
    .map((rule) => {
      const paths = asList('from' in rule ? rule.from.path : undefined).map((path) => new RegExp(path));
      return {
        name: rule.name!.slice(layerRulePrefix.length),
        why: rule.comment ?? '',
        units: units.filter((unit) => paths.some((path) => path.test(printing + unit))),
      };
    });
}

/** Boxes that import each other, directly or round a longer loop (Tarjan's strongly connected components). */
export function unitCycles(arrows: Arrow[]): string[][] {
  const next = new Map<string, string[]>();
  for (const arrow of arrows) next.set(arrow.from, [...(next.get(arrow.from) ?? []), arrow.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (unit: string) => {
    index.set(unit, index.size);
    low.set(unit, index.get(unit)!);
    stack.push(unit);
    onStack.add(unit);
    for (const to of next.get(unit) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(unit, Math.min(low.get(unit)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(unit, Math.min(low.get(unit)!, index.get(to)!));
      }
    }
    if (low.get(unit) !== index.get(unit)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== unit);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const unit of [...next.keys()].sort()) if (!index.has(unit)) visit(unit);
  return cycles;
}

/** Cruises `src/main` under `baseDir` with the repository's rules and draws printing from it. */
export async function printingGraph(baseDir = repository): Promise<PrintingGraph> {
  const options = await extractDepcruiseOptions(join(repository, '.dependency-cruiser.cjs'));
  const tsConfigFile = join(baseDir, options.tsConfig?.fileName ?? 'tsconfig.node.json');
  const reported = await cruise(
    ['src/main'],
    { ...options, baseDir, tsConfig: { fileName: tsConfigFile } },
    {},
    existsSync(tsConfigFile) ? { tsConfig: extractTSConfig(tsConfigFile) } : {},
  );
  const result = reported.output as ICruiseResult;

  const byKey = new Map<string, Arrow>();
  const units = new Set<string>();
  for (const module of result.modules) {
    const from = unitOf(module.source);
    if (from === null) continue;
    units.add(from);
    for (const dependency of module.dependencies) {
      const to = unitOf(dependency.resolved);
      if (to === null || to === from) continue;
      const key = `${from} ${to}`;
      const arrow = byKey.get(key) ?? { from, to, imports: [] };
      arrow.imports.push({ from: module.source, to: dependency.resolved });
      byKey.set(key, arrow);
    }
  }
  const arrows = [...byKey.values()].sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to));

  const violations: Violation[] = result.summary.violations.map((violation) => ({ rule: violation.rule.name, from: violation.from, to: violation.to }));
  for (const cycle of unitCycles(arrows)) {
    const inCycle = arrows.filter((candidate) => cycle.includes(candidate.from) && cycle.includes(candidate.to));
    // A cycle across layers already has its upward import reported; one inside a layer is named here, every import of it.
    if (inCycle.some((arrow) => arrowBreaks(arrow, violations))) continue;
    for (const arrow of inCycle) violations.push(...arrow.imports.map((fileImport) => ({ rule: 'printing-folder-cycle', ...fileImport })));
  }

  const rules = options.ruleSet?.forbidden ?? [];
  return { layers: layersOf(rules, [...units].sort()), arrows, violations };
}

const nodeId = (unit: string) => unit.replace(/[^a-z0-9]/gi, '_');

/** Whether an arrow stands for an import that breaks a rule. */
function arrowBreaks(arrow: Arrow, violations: Violation[]): Violation | undefined {
  return violations.find((violation) => unitOf(violation.from) === arrow.from && unitOf(violation.to) === arrow.to);
}

/** docs/printing-graph.md: the layers top first, the arrows between the boxes, the rules broken. */
export function printingGraphPage(graph: PrintingGraph): string {
  const top = [...graph.layers].reverse();
  const lines = [
    '# The import graph of printing',
    '',
    'Drawn by `npm run graph` from the imports of `src/main/printing` and the rules in',
    '`.dependency-cruiser.cjs` (docs/architecture.md, "The layers of printing"); written by that',
    'command, not by hand. Each folder of printing is one box, each file at its top level another. A',
    'layer imports only the layers below it; an arrow that breaks a rule is dotted and named.',
    '',
    '```mermaid',
    'flowchart TB',
  ];
  for (const layer of top) {
    lines.push(`  subgraph layer_${nodeId(layer.name)}["${layer.name}"]`);
    for (const unit of layer.units) lines.push(`    ${nodeId(unit)}["${unit}"]`);
    lines.push('  end');
  }
  for (const arrow of graph.arrows) {
    const broken = arrowBreaks(arrow, graph.violations);
    lines.push(broken ? `  ${nodeId(arrow.from)} -.->|${broken.rule}| ${nodeId(arrow.to)}` : `  ${nodeId(arrow.from)} --> ${nodeId(arrow.to)}`);
  }
  lines.push('```', '', '## The layers, top first', '');
  for (const layer of top) lines.push(`- **${layer.name}**: ${layer.units.map((unit) => `\`${unit}\``).join(', ')}. ${layer.why}`);
  lines.push('', '## The arrows', '', '```');
  for (const arrow of graph.arrows) lines.push(`${arrow.from} → ${arrow.to}${arrowBreaks(arrow, graph.violations) ? '   (breaks a rule)' : ''}`);
  lines.push('```', '', '## Rules broken', '');
  if (graph.violations.length === 0) lines.push('None.');
  for (const violation of graph.violations) lines.push(`- \`${violation.rule}\`: \`${violation.from}\` → \`${violation.to}\``);
  return `${lines.join('\n')}\n`;
}

async function main() {
  const checkOnly = process.argv.includes('--check');
  const graph = await printingGraph(process.cwd());
  if (!checkOnly) {
    writeFileSync(join(process.cwd(), 'docs/printing-graph.md'), printingGraphPage(graph));
    console.log('wrote docs/printing-graph.md');
  }
  for (const violation of graph.violations) console.error(`error ${violation.rule}: ${violation.from} → ${violation.to}`);
  if (graph.violations.length > 0) {
    console.error(`\n${graph.violations.length} import rule(s) broken (.dependency-cruiser.cjs, docs/printing-graph.md).`);
    process.exitCode = 1;
  } else {
    console.log('import rules hold: no cycle in src/main, printing in its layers');
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) await main();
