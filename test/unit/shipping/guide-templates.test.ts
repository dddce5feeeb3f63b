import { describe, expect, it } from 'vitest';
import { fileTemplates, templateCsv } from '../../../src/shared/import-templates';
import { checkUploadRow } from '../../../src/main/shipping/upload-rows';

const template = (id: string) => {
  const found = fileTemplates.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no ${id} template`);
  return found;
};

describe('the first-hour guide’s file templates', () => {
  it('give an upload row the upload takes as it is: one order to create, no problem', () => {
    const { columns, example } = template('upload');
    const cells = Object.fromEntries(columns.map((column, index) => [column, example[index] ?? '']).filter(([, value]) => value !== ''));
    const checked = checkUploadRow(cells, new Set(['1101']));
    expect(checked.problems).toEqual([]);
    expect(checked.request).toMatchObject({ orderRef: 'SHOP-2001', locationId: '1101' });
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
