/** The sandbox's label documents: what GET /orders/label and /orders/label/bundle return. */
export { barcodeAlphabet, labelDataSchema, parseLabelData, type LabelData, type LabelDataInput } from './label-data';
export { renderZplLabel } from './zpl';
export { mergePdfLabels, renderPdfLabel, renderPdfLabels } from './pdf';
export { pdfLabelOptionsSchema, pdfPrintSizes, PdfPrintSizeSchema, type PdfLabelOptions, type PdfPrintSize } from './pdf-options';
export { renderZplToPng, renderZplOptionsSchema, type RenderZplOptions } from './render';
export { encodeCode128, type Code128Symbol } from './code128';
