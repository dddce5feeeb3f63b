import { useEffect, useRef, type ReactNode } from 'react';
import { Icon } from './Icon';

/** A modal question with a safe default: Cancel has the focus, Esc cancels. */
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
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (!element.open) element.showModal();
    cancel.current?.focus();
    return () => element.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      className={danger ? 'dialog dialog-danger' : 'dialog'}
      aria-labelledby="confirm-title"
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
      data-testid="confirm-dialog"
    >
      <h2 id="confirm-title">
        {danger && <Icon name="warning" size={36} />}
        {title}
      </h2>
      <div className="dialog-body">{children}</div>
      <div className="button-row">
        <button type="button" ref={cancel} className="button" onClick={onCancel}>
          {cancelLabel}
        </button>
        <button type="button" className={danger ? 'button button-danger' : 'button button-primary'} onClick={onConfirm} data-testid="confirm-yes">
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
