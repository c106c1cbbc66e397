import { useEffect, useRef } from 'react';

/**
 * A ref for a `<dialog>` that opens as a modal when it mounts: the app's own
 * dialogs (Electron has no window.prompt or confirm). Escape closes it, and
 * its `onClose` tells the owner to unmount it.
 */
export function useModalDialog() {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => dialog.current?.showModal(), []);
  return dialog;
}
