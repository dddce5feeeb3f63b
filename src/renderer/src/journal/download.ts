/** Offers a blob as a file download: a link clicked once, then released. */
function downloadBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Offers text as a file download (a CSV export). */
export function downloadText(fileName: string, text: string, type = 'text/csv;charset=utf-8'): void {
  // A byte order mark so Excel reads the UTF-8 names (é, ß) right.
  downloadBlob(fileName, new Blob(['\uFEFF', text], { type }));
}

/** Offers bytes the station sent as base64 (a report workbook, a labels PDF) as a file download. */
export function downloadBase64(fileName: string, base64: string, type: string): void {
  downloadBlob(fileName, new Blob([Uint8Array.from(atob(base64), (character) => character.charCodeAt(0))], { type }));
}
