/** Offers text as a file download (a CSV export): a blob link clicked once, then released. */
export function downloadText(fileName: string, text: string, type = 'text/csv;charset=utf-8'): void {
  // A byte order mark so Excel reads the UTF-8 names (é, ß) right.
  const blob = new Blob(['\uFEFF', text], { type });
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
