/** jsdom lacks what antd measures with; RTL cleans up after every test (no vitest globals here). */
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: vi.fn(),
      removeListener: vi.fn(),
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
      dispatchEvent: vi.fn(),
    }),
  });
}

if (!globalThis.ResizeObserver) {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

// jsdom's getComputedStyle matches every stylesheet rule against the element on each call, and antd
// injects thousands of rules: Testing Library's role queries (which check visibility up the tree)
// then take seconds. The tests need no cascade; inline styles are what hides things here (React's
// <Activity>, antd's motion, `hidden`), so the computed style is the inline one.
window.getComputedStyle = ((element: Element) =>
  (element as HTMLElement).style ?? document.createElement('div').style) as typeof window.getComputedStyle;

// jsdom has no layout to scroll; the tab bar restores each screen's scroll position.
window.scrollTo = () => {};

// Lazy screens are transformed on first import: the first render of a file takes a while, and
// longer while every project runs at once on 2 cores (a guard against a hang, not a speed bar).
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
});

// Component tests render lists of definitions they take from core's registry; the page loads them
// module by module (resources/definitions.ts), which ResourcePage's own tests still go through.
import { RESOURCES } from '@wanxiang/core';
import { adoptDefinitions } from '../resources/definitions';

adoptDefinitions(RESOURCES);
