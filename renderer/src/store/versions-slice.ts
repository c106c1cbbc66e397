import type { StateCreator } from 'zustand';
import { changeSetBetween, diffFlows, draftComparer, isSameFlow } from '../../../core/editing/flow-diff';
import type { Flow } from '../../../core/model/flow';
import { api } from '../api/client';
import type { AppState } from './app-store';

/** The flow's latest version as published, or why it could not be read. */
export type LatestVersion = { flowId: string; version: number } & (
  { flow: Flow; isPublished: (draft: Flow) => boolean } | { error: string }
);

/** Published versions in the editor: one shown over the canvas, read-only, or restored into the draft. */
export interface VersionsSlice {
  /** The latest version, read when the flow opens and after each publish: what the draft is compared with. */
  latest: LatestVersion | undefined;
  /** Reads the latest version, unless `latest` is it already (a failed read is tried again). */
  readLatest: () => Promise<void>;
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

/**
 * Whether the draft differs from its latest version: by content once that
 * version is read (an edit taken back, or a version restored, is no change
 * to publish), as the versions list says; the host's answer until then.
 */
export function hasUnpublishedChanges(state: AppState): boolean {
  const version = state.versions[0]?.version;
  if (version === undefined || !state.flow) return false;
  const { latest } = state;
  if (latest && latest.flowId === state.flowId && latest.version === version && 'flow' in latest)
    return !latest.isPublished(state.flow);
  return state.hostUnpublished;
}

/** The flow on the canvas: a past run's or a published version's when one is shown (read-only), else the draft. */
export const flowOnCanvas = (state: AppState): Flow | undefined => state.runSnapshot ?? state.flow;

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
    latest: undefined,
    async readLatest() {
      const { flowId, versions, latest } = get();
      const version = versions[0]?.version;
      // Read already; a read that failed (Flowbench not reachable for a moment) is tried again.
      if (!flowId || version === undefined) return;
      if (latest?.flowId === flowId && latest.version === version && 'flow' in latest) return;
      let read: LatestVersion;
      try {
        const flow = await api.flows.version({ id: flowId, version });
        read = { flowId, version, flow, isPublished: draftComparer(flow) };
      } catch (error) {
        read = { flowId, version, error: error instanceof Error ? error.message : String(error) };
      }
      // Another flow opened, or another version published, meanwhile: that one's read is on its way.
      if (get().flowId === flowId && get().versions[0]?.version === version) set({ latest: read });
    },
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
