import { registerSW, type RegisterSWOptions } from 'virtual:pwa-register';
import { RUN_LOCK_PREFIX } from '../tabs/tab-link.ts';

/** True when any tab of this app holds a run's lock, that is, a run is in progress somewhere. */
async function anyRunInProgress(): Promise<boolean> {
  if (!navigator.locks) return false;
  const { held = [] } = await navigator.locks.query();
  return held.some((lock) => lock.name?.startsWith(RUN_LOCK_PREFIX));
}

/** The browser side of the app's offline state and updates, wired to the service worker vite-plugin-pwa builds (a no-op on the dev server). */
export function browserServiceWorker() {
  return {
    register: (callbacks: RegisterSWOptions) => registerSW(callbacks),
    runInProgress: anyRunInProgress,
    controlled: () => Boolean(navigator.serviceWorker?.controller),
  };
}
