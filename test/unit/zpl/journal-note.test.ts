import { describe, expect, it } from 'vitest';
import { emptyRunOptions, PrintJournal } from '../../../src/main/printing/journal/print-journal';
import { openDatabase } from '../../../src/main/store/database';

const note = "removed ^JUS: it would save the label's settings as the printer's power-on settings, which are the bench admin's to set.";

describe('a note of what the station removed from a label', () => {
  const journalWith = (reason: string | null) => {
    const journal = new PrintJournal(openDatabase(':memory:'), () => new Date(Date.UTC(2026, 0, 1, 8)));
    const { entries } = journal.createRun({
      environment: 'test',
      kind: 'single',
      printerId: 'p-1',
      operator: 'Sam',
      options: emptyRunOptions(),
      labels: [{ orderId: 'SBX-1', bundleId: null, bundlePosition: null, bundleCount: null, format: 'zpl', reason }],
    });
    return { journal, id: entries[0]?.id ?? 0 };
  };

  it('becomes the reason of an entry that had none', () => {
    const { journal, id } = journalWith(null);
    expect(journal.addNote(id, note)).toBe(note);
    expect(journal.entry(id)?.reason).toBe(note);
  });

  it('follows a reprint’s reason, and is written once however often the label is fetched', () => {
    const { journal, id } = journalWith('Reprint by Sam: smudged.');
    journal.addNote(id, note);
    journal.addNote(id, note);
    expect(journal.entry(id)?.reason).toBe(`Reprint by Sam: smudged. ${note}`);
  });
});
