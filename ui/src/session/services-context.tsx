import { useSelector } from '@xstate/react';
import { createContext, type ReactNode, useContext, useSyncExternalStore } from 'react';
import type { SnapshotFrom } from 'xstate';
import type { SiteConfig } from '../app/public-config';
import type { Services } from '../app/services';

const ServicesContext = createContext<Services | null>(null);

export function ServicesProvider({ services, children }: { services: Services; children: ReactNode }) {
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>;
}

export function useServices(): Services {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices: render inside <ServicesProvider>');
  return services;
}

type SessionSnapshot = SnapshotFrom<Services['session']>;

/** A slice of the one session actor; re-renders only when the slice changes. */
export function useSession<T>(selector: (snapshot: SessionSnapshot) => T): T {
  return useSelector(useServices().session, selector);
}

export function useSiteConfig(): SiteConfig {
  const { site } = useServices();
  return useSyncExternalStore(site.subscribe, site.get, site.get);
}
