import { useEffect, useRef, useState, type ReactNode } from 'react';
import { returnFocusToScreen } from '../store-offline/return-focus';
import { Icon } from './Icon';

/**
 * A modal dialog: shown with showModal (focus stays inside), Esc cancels. `wide` fits a label
 * preview. Closed, it hands the focus back to what opened it (WCAG 2.4.3), so a keyboard user
 * carries on from there instead of from the top of the page; when that is gone (a scan opened the
 * dialog, or its button went with the dialog's answer), the screen's title takes it.
 */
export function ConfirmDialogShell({ title, danger = false, wide = false, children, onCancel }: { title: string; danger?: boolean; wide?: boolean; children: ReactNode; onCancel(): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  // Read while the dialog is first drawn, before it takes the focus: the control that opened it.
  const [opener] = useState(() => focusedControl(document));
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (!element.open) element.showModal();
    return () => {
      element.close();
      if (opener && opener.isConnected && !opener.matches(':disabled')) opener.focus();
      else returnFocusToScreen(document);
    };
  }, [opener]);
  return (
    <dialog
      ref={dialog}
      className={['dialog', danger ? 'dialog-danger' : '', wide ? 'dialog-wide' : ''].filter(Boolean).join(' ')}
      aria-labelledby="dialog-title"
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
      data-testid="confirm-dialog"
    >
      <h2 id="dialog-title">
        {danger && <Icon name="warning" size={36} />}
        {title}
      </h2>
      <div className="dialog-body">{children}</div>
    </dialog>
  );
}

/** A yes/no question with a safe default: Cancel has the focus. */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  cancelLabel,
  danger = false,
  onConfirm,
  onCancel,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  danger?: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  return (
    <ConfirmDialogShell title={title} danger={danger} onCancel={onCancel}>
      {children}
      <div className="button-row">
        <button type="button" className="button" onClick={onCancel} autoFocus>
          {cancelLabel}
        </button>
        <button type="button" className={danger ? 'button button-danger' : 'button button-primary'} onClick={onConfirm} data-testid="confirm-yes">
          {confirmLabel}
        </button>
      </div>
    </ConfirmDialogShell>
  );
}

/** The element that has the focus, when it is a control (not the page itself). */
function focusedControl(document: Document): HTMLElement | null {
  const active = document.activeElement;
  return active instanceof HTMLElement && active !== document.body ? active : null;
}
