import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { ApiReply, HostEvent } from '../core/api/contract';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from './desktop/ipc';

// The one allowlisted bridge: `invoke(service, method, args)` and event
// subscriptions. No raw ipcRenderer reaches the page.
contextBridge.exposeInMainWorld('flowbench', {
  host: 'electron' as const,
  api: {
    invoke: (service: string, method: string, args: unknown): Promise<ApiReply> =>
      ipcRenderer.invoke(INVOKE_CHANNEL, service, method, args) as Promise<ApiReply>,
    subscribe: (listener: (event: HostEvent) => void) => {
      const handler = (_: IpcRendererEvent, event: HostEvent) => listener(event);
      ipcRenderer.on(EVENT_CHANNEL, handler);
      return () => ipcRenderer.off(EVENT_CHANNEL, handler);
    },
  },
});
