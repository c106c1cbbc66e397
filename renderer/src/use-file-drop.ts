import { useEffect } from 'react';
import { useAppStore } from './store/app-store';

const carriesFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') === true;

/**
 * A flow file dropped anywhere on the window is imported and opened, as the
 * desktop app's File → Open does. Drops a page handled itself (the palette's
 * node drags carry no files) are left alone, and a dropped file never
 * replaces the page.
 */
export function useFileDrop(): void {
  useEffect(() => {
    const onDragOver = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    };
    const onDrop = (event: DragEvent) => {
      if (!carriesFiles(event) || event.defaultPrevented) return;
      event.preventDefault();
      const files = [...(event.dataTransfer?.files ?? [])];
      void (async () => {
        const state = useAppStore.getState();
        let opened: string | undefined;
        for (const file of files) opened = (await state.importFlowFile(file)) ?? opened;
        if (opened) state.navigate({ page: 'editor', flowId: opened });
      })();
    };
    window.addEventListener('dragover', onDragOver);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragover', onDragOver);
      window.removeEventListener('drop', onDrop);
    };
  }, []);
}
