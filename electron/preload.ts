import { contextBridge } from 'electron';

// The one allowlisted bridge. The typed `invoke(service, method, args)` joins it
// with the host API; until then the renderer only learns where it runs.
contextBridge.exposeInMainWorld('flowbench', { host: 'electron' as const });
