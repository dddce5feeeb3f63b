/**
 * A scan while a dialog is open: the packer's next parcel matters more than a preview or a
 * yes/no question left on screen, so such a dialog is closed (as its own Cancel would) and the
 * scan's result shown. A dialog holding something typed (a reason, an address) is never thrown
 * away: it stays, the scan is still handled behind it, and its result shows when it is closed.
 */

const typedFieldSelector = 'input:not([type]), input[type="text"], input[type="search"], input[type="number"], input[type="email"], input[type="tel"], input[type="url"], textarea';

/**
 * Whether closing the dialog could lose something a person typed into it. Any text in a field
 * counts (React keeps a controlled field's default in step with its value, so "changed" cannot be
 * told): a dialog that came with text filled in stays too, which errs on the side of keeping.
 */
export function holdsTypedInput(dialog: Element): boolean {
  for (const field of dialog.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(typedFieldSelector)) {
    if (field.value.trim() !== '') return true;
  }
  return false;
}

/**
 * Closes every open dialog that can be closed safely, through its cancel event (the dialog's
 * own handler updates the screen's state). Returns the dialog that must stay, if one does.
 */
export function makeWayForScan(document: Document): HTMLDialogElement | null {
  let kept: HTMLDialogElement | null = null;
  for (const dialog of document.querySelectorAll<HTMLDialogElement>('dialog[open]')) {
    if (holdsTypedInput(dialog)) {
      kept = dialog;
      continue;
    }
    const cancel = new Event('cancel', { cancelable: true });
    // A dialog without a cancel handler of its own is closed here.
    if (dialog.dispatchEvent(cancel)) dialog.close();
  }
  return kept;
}
