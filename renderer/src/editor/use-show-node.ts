import { useReactFlow } from '@xyflow/react';
import { useCallback } from 'react';
import { useAppStore } from '../store/app-store';

/**
 * Selects a node (or a note, by its canvas id) and brings it into view, as a
 * click on a problem, on a connection's far end or on a match of Find does:
 * the node drawn large enough to read, wherever it was on the canvas.
 */
export function useShowNode(): (canvasId: string) => void {
  const { fitView } = useReactFlow();
  return useCallback(
    (canvasId: string) => {
      useAppStore.getState().setSelection([canvasId], []);
      void fitView({ nodes: [{ id: canvasId }], duration: 300, maxZoom: 1.2 });
    },
    [fitView],
  );
}
