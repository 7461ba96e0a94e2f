import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

export type LazyScreen<P> = LazyExoticComponent<ComponentType<P>> & {
  /** Starts loading the chunk now (the first visit loads a layout and its screen in parallel). */
  preload(): Promise<unknown>;
};

/**
 * React.lazy whose chunk can be fetched ahead of rendering; a failed load can be retried.
 * `alongside` is what the screen needs before it renders, fetched in parallel with its chunk (an
 * admin screen's resource definitions).
 */
export function lazyScreen<P = object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  alongside?: () => Promise<unknown>,
): LazyScreen<P> {
  let pending: Promise<{ default: ComponentType<P> }> | null = null;
  const both = () => (alongside ? Promise.all([load(), alongside()]).then(([screen]) => screen) : load());
  const preload = () => {
    pending ??= both().catch((error: unknown) => {
      pending = null;
      throw error;
    });
    return pending;
  };
  return Object.assign(lazy(preload), { preload });
}
