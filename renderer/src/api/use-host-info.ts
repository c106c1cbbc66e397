import { useEffect, useState } from 'react';
import { api } from './client';

export type HostInfo = Awaited<ReturnType<typeof api.host.info>>;

/** What the host is (the app or `serve`, where secrets go); undefined until it answered. */
export function useHostInfo(): HostInfo | undefined {
  const [info, setInfo] = useState<HostInfo | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void api.host.info({}).then((answer) => live && setInfo(answer));
    return () => {
      live = false;
    };
  }, []);
  return info;
}
