import type { StateCreator } from 'zustand';
import { isTransient, toFlowbenchError } from '../../../core/model/errors';
import { errorsIn, type Problem } from '../../../core/model/problems';
import type { FlowSummary } from '../../../core/model/summaries';
import type { ExportFormat } from '../../../core/formats/export-formats';
import { api } from '../api/client';
import type { AppState } from './app-store';

/** The home screen: the flows list and what can be done to whole flows. */
export interface FlowsSlice {
  flows: FlowSummary[];
  isLoadingFlows: boolean;
  /** Why the list could not be loaded (the host is away, the session is not valid); the list is then unknown, not empty. */
  flowsProblem: { code: string; message: string } | undefined;
  loadFlows: () => Promise<void>;
  createFlow: (name: string) => Promise<string>;
  renameFlow: (id: string, name: string) => Promise<void>;
  duplicateFlow: (id: string) => Promise<void>;
  removeFlow: (id: string) => Promise<void>;
  setFlowEnabled: (id: string, enabled: boolean) => Promise<void>;
  importFlowFile: (file: File) => Promise<string | undefined>;
  /** Imports a flow file's text (a dropped or opened file); the new flow's id, or undefined when refused. */
  importFlowText: (fileName: string, text: string) => Promise<string | undefined>;
  /** Why the last file was not imported, shown until it is closed (a toast would vanish with the reason). */
  refusedImport: { fileName: string; message: string; problems: (Problem | { message: string })[] } | undefined;
  closeRefusedImport: () => void;
  /** Adds the example flows (those whose tool names are free). */
  installExamples: () => Promise<void>;
  exportFlowFile: (id: string, format: ExportFormat) => Promise<void>;
}

const LIST_RETRY_MS = 2000;

export const createFlowsSlice: StateCreator<AppState, [], [], FlowsSlice> = (set, get) => ({
  flows: [],
  isLoadingFlows: false,
  flowsProblem: undefined,
  async loadFlows() {
    set({ isLoadingFlows: true });
    try {
      set({ flows: await api.flows.list({}), flowsProblem: undefined });
    } catch (error) {
      const failure = toFlowbenchError(error);
      set({ flowsProblem: { code: failure.code, message: failure.message } });
      // Flowbench may be restarting: ask again until it answers.
      if (isTransient(failure)) setTimeout(() => void get().loadFlows(), LIST_RETRY_MS);
    } finally {
      set({ isLoadingFlows: false });
    }
  },
  async createFlow(name) {
    const detail = await api.flows.create({ name });
    await get().loadFlows();
    return detail.flow.id;
  },
  async renameFlow(id, name) {
    await api.flows.applyChanges({ id, changes: { flow: { name } } });
    await get().loadFlows();
  },
  async duplicateFlow(id) {
    await api.flows.duplicate({ id });
    await get().loadFlows();
  },
  async removeFlow(id) {
    await api.flows.remove({ id });
    await get().loadFlows();
  },
  async installExamples() {
    const { added } = await api.flows.installExamples({});
    await get().loadFlows();
    get().notify(`Added ${added} example flow${added === 1 ? '' : 's'}`);
  },
  async setFlowEnabled(id, enabled) {
    await api.flows.setEnabled({ id, enabled });
    await get().loadFlows();
  },
  refusedImport: undefined,
  closeRefusedImport() {
    set({ refusedImport: undefined });
  },
  async importFlowFile(file) {
    return get().importFlowText(file.name, await file.text());
  },
  async importFlowText(fileName, text) {
    let result;
    try {
      result = await api.flows.importText({ text, fileName });
    } catch (error) {
      const failure = toFlowbenchError(error);
      const problems = (failure.data?.problems ?? []) as (Problem | { message: string })[];
      set({ refusedImport: { fileName, message: failure.message, problems } });
      return undefined;
    }
    await get().loadFlows();
    const errors = errorsIn(result.problems);
    const laidOut = result.laidOut ? `; laid out, as ${result.laidOut}` : '';
    get().notify(
      errors.length > 0
        ? `Imported "${result.flow.name}" (${result.format}) as a draft with ${errors.length} problem(s) to fix${laidOut}`
        : `Imported "${result.flow.name}" (${result.format})${laidOut}`,
    );
    return result.flow.id;
  },
  async exportFlowFile(id, format) {
    const { text, fileName, leftOut } = await api.flows.exportText({ id, format });
    const type = fileName.endsWith('.yaml') ? 'application/yaml' : 'application/json';
    const url = URL.createObjectURL(new Blob([text], { type }));
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    link.click();
    URL.revokeObjectURL(url);
    // The native format leaves nothing out; another format says what it had no place for.
    if (leftOut.length > 0) get().notify(`${fileName} has no place for the flow's ${leftOut.join(' and ')}`);
  },
});
