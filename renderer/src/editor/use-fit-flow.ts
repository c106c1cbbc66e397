import { useReactFlow, useStoreApi } from '@xyflow/react';
import { useCallback } from 'react';
import { useAppStore } from '../store/app-store';
import { flowOnCanvas } from '../store/versions-slice';
import { initialViewport } from './viewport';

/**
 * Fit (the toolbar's, the canvas controls', Shift+1 and the menu's): the
 * whole flow in view as it opens (initialViewport), animated. React Flow's
 * fitView would give a flow that opened in large type bare labels again.
 */
export function useFitFlow(): () => void {
  const { setViewport } = useReactFlow();
  const canvas = useStoreApi();
  return useCallback(() => {
    const flow = flowOnCanvas(useAppStore.getState());
    const { width, height } = canvas.getState();
    if (flow) void setViewport(initialViewport(flow, width, height), { duration: 300 });
  }, [setViewport, canvas]);
}
