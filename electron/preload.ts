import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { ApiReply, HostEvent } from '../core/api/contract';

// The one allowlisted bridge: `invoke(service, method, args)` and event
// subscriptions. No raw ipcRenderer reaches the page.
contextBridge.exposeInMainWorld('flowbench', {
  host: 'electron' as const,
  api: {
    invoke: (service: string, method: string, args: unknown): Promise<ApiReply> =>
      ipcRenderer.invoke('flowbench:invoke', service, method, args) as Promise<ApiReply>,
    subscribe: (listener: (event: HostEvent) => void) => {
      const handler = (_: IpcRendererEvent, event: HostEvent) => listener(event);
      ipcRenderer.on('flowbench:event', handler);
      return () => ipcRenderer.off('flowbench:event', handler);
    },
  },
});
