import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

export type LazyScreen<P> = LazyExoticComponent<ComponentType<P>> & {
  /** Starts loading the chunk now (the first visit loads a layout and its screen in parallel). */
  preload(): Promise<unknown>;
};

/** React.lazy whose chunk can be fetched ahead of rendering; a failed load can be retried. */
export function lazyScreen<P = object>(load: () => Promise<{ default: ComponentType<P> }>): LazyScreen<P> {
  let pending: Promise<{ default: ComponentType<P> }> | null = null;
  const preload = () => {
    pending ??= load().catch((error: unknown) => {
      pending = null;
      throw error;
    });
    return pending;
  };
  return Object.assign(lazy(preload), { preload });
}
