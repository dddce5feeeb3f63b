/**
 * What a PDF label may be asked for with, apart from pdf.ts, which draws it with pdf-lib: the
 * sandbox checks a request without loading pdf-lib, and loads it with the first PDF it draws.
 */
import { z } from 'zod';
import { OrientationSchema } from '../../shared/api/schemas';

/**
 * Paper the label is printed on. A6: the page is the label (105 x 148 mm, turned for landscape).
 * A4: an A4 portrait sheet with the A6 label in its top-left corner, edged by a dashed cut line,
 * for office printers and sheets of A6 stickers.
 */
export const pdfPrintSizes = ['A6', 'A4'] as const;
export type PdfPrintSize = (typeof pdfPrintSizes)[number];
export const PdfPrintSizeSchema = z.enum(pdfPrintSizes);

export const pdfLabelOptionsSchema = z.object({
  orientation: OrientationSchema.default('landscape'),
  printSize: PdfPrintSizeSchema.default('A6'),
});
export type PdfLabelOptions = z.input<typeof pdfLabelOptionsSchema>;
