/**
 * A custom admin route's screen (custom-screens.ts), or the frame with the route's title when it
 * has none yet. Its own chunk, so that the table of custom screens — a lazy import and its list of
 * chunks for each — is not part of the route table in every page's first JavaScript.
 */
import AdminScreen from './AdminScreen';
import { adminCustomScreenOf } from './custom-screens';

export default function CustomScreen({ pattern, title }: { pattern: string; title: string }) {
  const Screen = adminCustomScreenOf(pattern);
  return Screen ? <Screen /> : <AdminScreen title={title} />;
}

/** Starts loading a custom route's screen (the first visit loads it beside the layout). */
export function preloadCustomScreen(pattern: string): Promise<unknown> {
  return adminCustomScreenOf(pattern)?.preload() ?? Promise.resolve();
}
