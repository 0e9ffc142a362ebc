import { errorMessage } from '../../core/error-message.ts';
/** The callbacks a service worker registration reports to (vite-plugin-pwa's registerSW takes these). */
export interface RegistrationCallbacks {
  onNeedRefresh(): void;
  onOfflineReady(): void;
  onRegisterError(error: unknown): void;
}

/** Registers the service worker; returns the function that activates a waiting version and reloads the page. */
export type RegisterServiceWorker = (callbacks: RegistrationCallbacks) => (reloadPage?: boolean) => Promise<void>;

/** What the update notice needs: registration, whether any tab runs a run, and whether a worker already serves this page. */
export interface AppUpdateDeps {
  register: RegisterServiceWorker;
  runInProgress: () => Promise<boolean>;
  controlled: () => boolean;
}

/** Text shown when an update is asked for while a run is in progress. */
export const UPDATE_WAITS_FOR_RUN =
  'A run is in progress (in this tab or another): the new version is taken once it completes or is stopped.';

/** The app's offline state and its updates: a new version is announced, and taken on reload only when no run is in progress. */
export class AppUpdate {
  /** A new version is installed and waits to be taken. */
  waiting = $state(false);
  /** This version is stored by the service worker: it loads and runs with the network off. */
  offlineReady = $state(false);
  /** Why the last update was not taken, or why offline use is unavailable. */
  message: string | null = $state(null);
  #activate: ((reloadPage?: boolean) => Promise<void>) | null = null;
  readonly #deps: AppUpdateDeps;

  constructor(deps: AppUpdateDeps) {
    this.#deps = deps;
  }

  /** Registers the service worker (once). */
  start(): void {
    if (this.#activate) return;
    this.offlineReady = this.#deps.controlled();
    this.#activate = this.#deps.register({
      onNeedRefresh: () => (this.waiting = true),
      onOfflineReady: () => (this.offlineReady = true),
      onRegisterError: (error) => (this.message = `Offline use is unavailable: ${errorMessage(error)}`),
    });
  }

  /** Takes the waiting version and reloads, unless a run is in progress anywhere (then says so and returns false). */
  async apply(): Promise<boolean> {
    if (!this.waiting || !this.#activate) return false;
    if (await this.#deps.runInProgress()) {
      this.message = UPDATE_WAITS_FOR_RUN;
      return false;
    }
    this.message = null;
    await this.#activate(true);
    return true;
  }
}
