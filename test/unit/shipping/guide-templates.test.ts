import { describe, expect, it } from 'vitest';
import { fileTemplates, templateCsv } from '../../../src/shared/import-templates';
import { manifestFields } from '../../../src/main/orders/manifest-columns';
import { optionalColumns, requiredColumns } from '../../../src/main/shipping/to-ship-orders';
import { uploadOptionalColumns, uploadRequiredColumns } from '../../../src/main/shipping/upload-rows';

const template = (id: string) => {
  const found = fileTemplates.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no ${id} template`);
  return found;
};

describe('the first-hour guide’s file templates', () => {
  it('name only columns the station reads, every required one, with one example cell per column', () => {
    const readers: Record<string, { required: readonly string[]; known: readonly string[] }> = {
      manifest: { required: ['orderId'], known: manifestFields },
      'to-ship': { required: requiredColumns, known: [...requiredColumns, ...optionalColumns] },
      upload: { required: uploadRequiredColumns, known: [...uploadRequiredColumns, ...uploadOptionalColumns] },
    };
    for (const [id, reader] of Object.entries(readers)) {
      const { columns, example } = template(id);
      for (const column of reader.required) expect(columns, `${id} has ${column}`).toContain(column);
      for (const column of columns) expect(reader.known, `${id}: ${column} is read`).toContain(column);
      expect(example).toHaveLength(columns.length);
    }
  });

  it('gives the weight in grams and sizes in millimetres, longest side first', () => {
    for (const id of ['to-ship', 'upload']) {
      const { columns, example } = template(id);
      const value = (column: string) => Number(example[columns.indexOf(column)]);
      expect(value('weight')).toBeGreaterThanOrEqual(100);
      expect(value('length')).toBeGreaterThanOrEqual(value('width'));
      expect(value('width')).toBeGreaterThanOrEqual(value('height'));
    }
  });

  it('writes a header row and the example row as CSV', () => {
    const csv = templateCsv(template('manifest'));
    expect(csv.split('\n')).toEqual(['orderId,orderRef,barcode,bundleId,recipient,status', '1234567,SHOP-1001,DT6068581607000,BND-US3A3XAM,Eva de Boer,draft', '']);
  });
});
