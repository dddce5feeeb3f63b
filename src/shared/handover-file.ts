/** Where a handover list is offered for download by the web host, and the only file names it serves. */
export const handoverDownloadPath = '/handover/';

/** The names closing the day gives its PDFs: handover-<environment>-<day>[-location-<id>].pdf. */
export const handoverFileNamePattern = /^handover-(sandbox|test|live)-\d{4}-\d{2}-\d{2}(-location-\d{1,12})?\.pdf$/;

/** The file name of a handover list from its path on the station's disk (either separator), or null when it is not one. */
export function handoverFileName(path: string): string | null {
  const name = path.split(/[\\/]/).pop() ?? '';
  return handoverFileNamePattern.test(name) ? name : null;
}
