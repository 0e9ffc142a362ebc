// The update notice's rules with a fake registration: a new version is announced, taken only when
// no tab holds a run lock, and a registration error is said, not swallowed.
import { describe, expect, it } from 'vitest';
import { AppUpdate, UPDATE_WAITS_FOR_RUN, type RegistrationCallbacks } from '../../src/app/shell/app-update.svelte.ts';

function rig(options: { running?: boolean; controlled?: boolean } = {}) {
  let callbacks: RegistrationCallbacks | null = null;
  const activations: Array<boolean | undefined> = [];
  let running = options.running ?? false;
  let registrations = 0;
  const update = new AppUpdate({
    register: (given) => {
      registrations += 1;
      callbacks = given;
      return async (reloadPage) => void activations.push(reloadPage);
    },
    runInProgress: async () => running,
    controlled: () => options.controlled ?? false,
  });
  return {
    update,
    activations,
    registrations: () => registrations,
    worker: () => callbacks!,
    setRunning: (next: boolean) => (running = next),
  };
}

describe('AppUpdate', () => {
  it('registers once, and reports offline readiness from the worker or from an existing controller', () => {
    const fresh = rig();
    fresh.update.start();
    fresh.update.start();
    expect(fresh.registrations()).toBe(1);
    expect(fresh.update.offlineReady).toBe(false);
    fresh.worker().onOfflineReady();
    expect(fresh.update.offlineReady).toBe(true);
    const returning = rig({ controlled: true });
    returning.update.start();
    expect(returning.update.offlineReady).toBe(true);
  });

  it('does nothing before a new version waits', async () => {
    const { update, activations } = rig();
    update.start();
    await expect(update.apply()).resolves.toBe(false);
    expect(activations).toEqual([]);
  });

  it('announces a waiting version and takes it with a reload when no run is in progress', async () => {
    const { update, activations, worker } = rig();
    update.start();
    worker().onNeedRefresh();
    expect(update.waiting).toBe(true);
    await expect(update.apply()).resolves.toBe(true);
    expect(activations).toEqual([true]);
    expect(update.message).toBeNull();
  });

  it('never takes it while a run is in progress in any tab, and takes it once the run stops', async () => {
    const r = rig({ running: true });
    r.update.start();
    r.worker().onNeedRefresh();
    await expect(r.update.apply()).resolves.toBe(false);
    expect(r.activations).toEqual([]);
    expect(r.update.message).toBe(UPDATE_WAITS_FOR_RUN);
    r.setRunning(false);
    await expect(r.update.apply()).resolves.toBe(true);
    expect(r.activations).toEqual([true]);
    expect(r.update.message).toBeNull();
  });

  it('says why offline use is unavailable when registration fails', () => {
    const { update, worker } = rig();
    update.start();
    worker().onRegisterError(new Error('SecurityError: insecure origin'));
    expect(update.message).toBe('Offline use is unavailable: SecurityError: insecure origin');
    expect(update.offlineReady).toBe(false);
  });
});
