import { registerSW } from 'virtual:pwa-register';
import { AppUpdate } from './shell/app-update.svelte.ts';

/** Prefix of the Web Lock a tab holds while it runs a run (or a sweep). */
export const RUN_LOCK_PREFIX = 'spade-lab-run-';

/** True when any tab of this app holds a run's lock, that is, a run is in progress somewhere. */
async function anyRunInProgress(): Promise<boolean> {
  if (!navigator.locks) return false;
  const { held = [] } = await navigator.locks.query();
  return held.some((lock) => lock.name?.startsWith(RUN_LOCK_PREFIX));
}

/** The app's offline state and updates, wired to the service worker vite-plugin-pwa builds (a no-op on the dev server). */
export function createAppUpdate(): AppUpdate {
  return new AppUpdate({
    register: (callbacks) => registerSW(callbacks),
    runInProgress: anyRunInProgress,
    controlled: () => Boolean(navigator.serviceWorker?.controller),
  });
}
