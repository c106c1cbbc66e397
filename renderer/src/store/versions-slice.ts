import type { StateCreator } from 'zustand';
import { changeSetBetween, diffFlows, isSameFlow } from '../../../core/editing/flow-diff';
import type { Flow } from '../../../core/model/flow';
import { api } from '../api/client';
import type { AppState } from './app-store';

/** Published versions in the editor: one shown over the canvas, read-only, or restored into the draft. */
export interface VersionsSlice {
  /**
   * The version last shown over the canvas. It is the canvas's read-only flow
   * (`runSnapshot`) until something else takes that place (a run opened, Back
   * to the draft): see versionOnCanvas.
   */
  shownVersion: { version: number; flow: Flow } | undefined;
  showVersion: (version: number) => Promise<void>;
  /** Makes the draft what the version is, as one edit (Undo takes it back); tool offered or not stays. */
  restoreVersion: (version: number) => Promise<void>;
}

/** The published version the canvas shows now, if it shows one. */
export const versionOnCanvas = (state: AppState): number | undefined =>
  state.shownVersion && state.shownVersion.flow === state.runSnapshot ? state.shownVersion.version : undefined;

/** What the canvas shows instead of the draft, read-only ('version 3', 'a past run'); undefined for the draft. */
export function readOnlyShown(state: AppState): string | undefined {
  if (state.runSnapshot === undefined) return undefined;
  const version = versionOnCanvas(state);
  return version === undefined ? 'a past run' : `version ${version}`;
}

export const createVersionsSlice: StateCreator<AppState, [], [], VersionsSlice> = (set, get) => {
  /** The version's flow, or undefined (and why, in the message line) when it could not be read. */
  const load = async (version: number): Promise<Flow | undefined> => {
    const flowId = get().flowId;
    if (!flowId) return undefined;
    try {
      return await api.flows.version({ id: flowId, version });
    } catch (error) {
      get().notify(`Version ${version} could not be opened: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  };

  return {
    shownVersion: undefined,
    async showVersion(version) {
      const flow = await load(version);
      if (!flow) return;
      // A run shown would put its statuses on nodes it may not have had.
      get().backToDraft();
      set({ runSnapshot: flow, shownVersion: { version, flow }, selectedNodes: [], selectedEdges: [] });
    },
    async restoreVersion(version) {
      const flow = await load(version);
      const draft = get().flow;
      if (!flow || !draft) return;
      get().backToDraft();
      // The same test as the versions list's "The draft is what version N is".
      if (isSameFlow(diffFlows(flow, draft))) return get().notify(`The draft is already what version ${version} is`);
      get().edit(changeSetBetween(draft, flow));
      get().notify(`The draft is now what version ${version} is: Undo takes it back`);
    },
  };
};
