import type { KeyTarget } from './scan-detector';

/** The facts of a focused element that decide whether a key there may be part of a scan. */
export interface ElementFacts {
  tagName: string;
  /** The `type` attribute of an input, lower case. */
  inputType?: string;
  isContentEditable: boolean;
  /** The element carries `data-scan-entry`: the dedicated manual-entry field. */
  isScanEntry: boolean;
}

/** Marks the manual-entry field (`<input data-scan-entry>`). */
export const scanEntryAttribute = 'data-scan-entry';

// Inputs that take no typed text: keys on them are free to be part of a scan.
const nonTextInputs = new Set(['button', 'checkbox', 'radio', 'range', 'color', 'file', 'image', 'reset', 'submit']);

export function classifyKeyTarget(element: ElementFacts | null): KeyTarget {
  if (!element) return 'other';
  if (element.isScanEntry) return 'manual-entry';
  if (element.isContentEditable) return 'text-field';
  const tag = element.tagName.toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'SELECT') return 'text-field';
  if (tag === 'INPUT') return nonTextInputs.has((element.inputType ?? 'text').toLowerCase()) ? 'other' : 'text-field';
  return 'other';
}
