import { ReactFlowProvider } from '@xyflow/react';
import { useEffect } from 'react';
import { useAppStore, type AppState } from '../store/app-store';
import { Canvas } from './canvas';
import { EditorKeys } from './editor-keys';
import { holdsUnsavedText, pinDraftKey } from './json-drafts';
import { Palette } from './palette';
import { RefusalBanner } from './refusal-banner';
import { ShortcutsDialog } from './shortcuts-dialog';
import { SidePanel } from './side-panel';
import { Toolbar } from './toolbar';

const isOpenIn = (state: AppState, flowId: string) => state.flow !== undefined && state.flowId === flowId;

/** The editor of one flow: toolbar, palette, canvas and the side panel. */
export function EditorPage({ flowId }: { flowId: string }) {
  const isOpen = useAppStore((s) => isOpenIn(s, flowId));
  const notify = useAppStore((s) => s.notify);

  useEffect(() => {
    const state = useAppStore.getState();
    // Already open when the app started on this flow (see main.tsx).
    const opening = (isOpenIn(state, flowId) ? Promise.resolve() : state.openFlow(flowId)).then(() => {
      // Came from the runs page: show that run once its flow is open.
      const runId = useAppStore.getState().runToOpen;
      if (!runId) return;
      useAppStore.setState({ runToOpen: undefined });
      return useAppStore.getState().openRun(runId);
    });
    opening.catch((error: unknown) => {
      notify(error instanceof Error ? error.message : String(error));
      useAppStore.getState().navigate({ page: 'home' });
    });
    const beforeUnload = (event: BeforeUnloadEvent) => {
      void useAppStore.getState().flushSaves();
      // Text typed that cannot be saved yet (JSON that does not parse, an output being written to
      // pin): the browser asks before it goes (the desktop app asks in its own dialog, shell.ts).
      const { flow, flowId: open } = useAppStore.getState();
      const isShown = (key: string) => flow?.nodes.some((n) => pinDraftKey(open ?? '', n.id) === key) ?? false;
      if (holdsUnsavedText(isShown)) event.preventDefault();
    };
    window.addEventListener('beforeunload', beforeUnload);
    return () => window.removeEventListener('beforeunload', beforeUnload);
  }, [flowId, notify]);

  if (!isOpen) return <main className="loading">Opening…</main>;
  return (
    <ReactFlowProvider>
      <main className="editor">
        <Toolbar />
        <Palette />
        <Canvas />
        <RefusalBanner />
        <SidePanel />
        <ShortcutsDialog />
        <EditorKeys />
      </main>
    </ReactFlowProvider>
  );
}
