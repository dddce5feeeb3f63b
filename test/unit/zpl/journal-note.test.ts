import { describe, expect, it } from 'vitest';
import { emptyRunOptions } from '../../../src/main/printing/journal/journal-rows';
import { PrintJournal } from '../../../src/main/printing/journal/print-journal';
import { SqliteEngine } from '../../../src/main/store/engine/sqlite-engine';

const note = "removed ^JUS: it would save the label's settings as the printer's power-on settings, which are the bench admin's to set.";

describe('a note of what the station removed from a label', async () => {
  const journalWith = async (reason: string | null) => {
    const journal = new PrintJournal(SqliteEngine.open(':memory:'), () => new Date(Date.UTC(2026, 0, 1, 8)));
    const { entries } = await journal.runRecords.createRun({
      environment: 'test',
      kind: 'single',
      printerId: 'p-1',
      operator: 'Sam',
      options: emptyRunOptions(),
      labels: [{ orderId: 'SBX-1', bundleId: null, bundlePosition: null, bundleCount: null, format: 'zpl', reason }],
    });
    return { journal, id: entries[0]?.id ?? 0 };
  };

  it('becomes the reason of an entry that had none', async () => {
    const { journal, id } = await journalWith(null);
    expect(await journal.labels.addNote(id, note)).toBe(note);
    expect((await journal.labels.entry(id))?.reason).toBe(note);
  });

  it('follows a reprint’s reason, and is written once however often the label is fetched', async () => {
    const { journal, id } = await journalWith('Reprint by Sam: smudged.');
    await journal.labels.addNote(id, note);
    await journal.labels.addNote(id, note);
    expect((await journal.labels.entry(id))?.reason).toBe(`Reprint by Sam: smudged. ${note}`);
  });
});
