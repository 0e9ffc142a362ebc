// The interpreter snapshot the build ships (src/adapters/sandbox/vite-plugin.ts): the dev server
// serves the Node sandbox's own snapshot gzipped, every interpreter of a page restores from it in
// one frame (gzipped, or already unpacked by a host's Content-Encoding), and a snapshot that is bad
// in any way costs speed, never a start: the frame or the worker falls back, says why, and once a
// worker refused it the spawner's later frames take their own.
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentSandboxSnapshot } from '../../src/adapters/sandbox/node-sandbox.ts';
import { SNAPSHOT_FILE } from '../../src/adapters/sandbox/vite-plugin.ts';
import { EXAMPLE_ENV } from '../../src/app/sandbox/example-env.ts';
import { startRig, type BrowserRig } from './harness.ts';
import type { SnapshotUse } from '../../src/adapters/sandbox/browser-sandbox.ts';
import type {} from './pages/sandbox-page.ts';

const PAGE = '/tests/browser/pages/sandbox.html';

let rig: BrowserRig;
let page: Page;
const snapshotRequests: string[] = [];

/** Serves `body` (or a 404 without one) for a file beside Pyodide's. */
async function serveBesidePyodide(name: string, body: Buffer | null): Promise<void> {
  await page.route(`**/pyodide/${name}`, (route) =>
    route.fulfill(body ? { status: 200, contentType: 'application/gzip', body } : { status: 404, body: 'not here' }),
  );
}

/** Starts a runtime with one spare from `snapshotFile`, plays the example environment three times, and returns the spawn counts, how many frames it opened and what its last interpreter started from. */
async function playThrice(
  snapshotFile: string,
): Promise<{ observations: string[]; failed: number; framesOpened: number; snapshotUse: SnapshotUse | null }> {
  return page.evaluate(
    async ({ file, code }) => {
      const api = window.spadeTest;
      const framesBefore = api.sandboxFramesOpened();
      const failedBefore = api.spawns().failed;
      await api.startRuntime({ spares: 1 }, file);
      const observations: string[] = [];
      for (let i = 0; i < 3; i++) {
        const result = await api.runEnv(code, { seed: 7 });
        observations.push(result.ok ? String(result.observation) : `failed: ${result.code}`);
      }
      // Read before closing: closing kills a spare that is still starting, which counts as failed.
      const failed = api.spawns().failed - failedBefore;
      const framesOpened = api.sandboxFramesOpened() - framesBefore;
      const snapshotUse = api.snapshotUse();
      await api.closeRuntime();
      return { observations, failed, framesOpened, snapshotUse };
    },
    { file: snapshotFile, code: EXAMPLE_ENV },
  );
}

let fromBuild: ReturnType<typeof playThrice> | null = null;
/** What a runtime restored from the build's snapshot gives (played once per file: every later comparison reads the same three observations). */
function playThriceFromBuild(): ReturnType<typeof playThrice> {
  fromBuild ??= playThrice(SNAPSHOT_FILE);
  return fromBuild;
}

let madeInNode: ReturnType<typeof currentSandboxSnapshot> | null = null;
/** The Node sandbox's snapshot, made once per file (each call bundles the sandbox anew, and the sources do not change mid-run). */
function nodeSnapshot(): ReturnType<typeof currentSandboxSnapshot> {
  madeInNode ??= currentSandboxSnapshot();
  return madeInNode;
}

beforeAll(async () => {
  rig = await startRig();
  page = await rig.open(PAGE);
  page.on('request', (request) => {
    if (request.url().includes('/pyodide/')) snapshotRequests.push(new URL(request.url()).pathname);
  });
  await page.waitForFunction(() => window.spadeTest !== undefined, undefined, { timeout: 60_000 });
});

afterAll(async () => {
  await rig?.close();
});

describe("the build's interpreter snapshot", () => {
  it("is the Node sandbox's own snapshot, served gzipped beside Pyodide's files", async () => {
    const served = await fetch(`${rig.baseUrl}/pyodide/${SNAPSHOT_FILE}`);
    expect(served.status).toBe(200);
    const gzipped = Buffer.from(await served.arrayBuffer());
    const made = await nodeSnapshot();
    expect(made).not.toBeNull();
    expect(gunzipSync(gzipped).equals(Buffer.from(made!))).toBe(true);
    // gzip pays: interpreter memory is mostly zeros.
    expect(gzipped.length).toBeLessThan(made!.length / 3);
  });

  it('every start of a page restores from it in one frame, nothing fails, and restored interpreters play alike', async () => {
    const played = await playThriceFromBuild();
    expect(played.failed).toBe(0);
    // A worker that refused the snapshot would have made the spawner open a second frame.
    expect(played.framesOpened).toBe(1);
    expect(new Set(played.observations).size).toBe(1);
    expect(played.observations[0]).not.toMatch(/^failed/);
    expect(snapshotRequests).toContain(`/pyodide/${SNAPSHOT_FILE}`);
    expect(played.snapshotUse).toEqual({ fromBuild: true });
  });

  it('is used as it is when the host unpacked it (Content-Encoding: gzip): one frame, nothing fails, started from the build', async () => {
    const made = await nodeSnapshot();
    await serveBesidePyodide('unpacked.bin.gz', Buffer.from(made!));
    const played = await playThrice('unpacked.bin.gz');
    expect({ failed: played.failed, framesOpened: played.framesOpened, snapshotUse: played.snapshotUse }).toEqual({
      failed: 0,
      framesOpened: 1,
      snapshotUse: { fromBuild: true },
    });
    expect(played.observations).toEqual((await playThriceFromBuild()).observations);
  });

  it('one that does not restore costs a cold start, never a failed one, and the next frame takes its own snapshot', async () => {
    const noise = Buffer.alloc(256 * 1024);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    await serveBesidePyodide('noise.bin.gz', gzipSync(noise));
    const played = await playThrice('noise.bin.gz');
    expect(played.failed).toBe(0);
    expect(played.framesOpened).toBe(2);
    expect(played.snapshotUse).toEqual({ fromBuild: false, why: 'did not restore in Pyodide' });
    expect(played.observations).toEqual((await playThriceFromBuild()).observations);
  });

  it('one that does not unzip, or is missing, leaves the frame to take its own: one frame, nothing fails', async () => {
    await serveBesidePyodide('plain.bin.gz', Buffer.from('not gzip at all'));
    await serveBesidePyodide('missing.bin.gz', null);
    const good = (await playThriceFromBuild()).observations;
    for (const file of ['plain.bin.gz', 'missing.bin.gz']) {
      const played = await playThrice(file);
      expect({
        file,
        failed: played.failed,
        framesOpened: played.framesOpened,
        observations: played.observations,
      }).toEqual({ file, failed: 0, framesOpened: 1, observations: good });
      const why =
        file === 'missing.bin.gz'
          ? 'could not be fetched (HTTP 404)'
          : 'is neither gzip data nor a Pyodide snapshot (15 bytes starting 6e 6f 74 20)';
      expect(played.snapshotUse).toEqual({ fromBuild: false, why });
    }
  });
});

describe("the sandbox frame's downloads", () => {
  it('a file that cannot be fetched fails the start with its name and leaves no frame behind (the frame opens while they download)', async () => {
    await page.route('**/pyodide/python_stdlib.zip', (route) => route.fulfill({ status: 404, body: 'not here' }));
    try {
      const outcome = await page.evaluate(async () => {
        const api = window.spadeTest;
        const opened = api.sandboxFramesOpened();
        // Earlier tests' spawners keep their frames: only this start's count.
        const present = api.sandboxFrames();
        const error = await api.startRuntime({ spares: 1 }).then(
          () => null,
          (e: unknown) => String(e),
        );
        await api.closeRuntime();
        return { error, framesOpened: api.sandboxFramesOpened() - opened, framesLeft: api.sandboxFrames() - present };
      });
      expect(outcome.error).toMatch(/could not load python_stdlib\.zip for the Python sandbox \(HTTP 404\)/);
      expect(outcome.framesOpened).toBe(1);
      expect(outcome.framesLeft).toBe(0);
    } finally {
      await page.unroute('**/pyodide/python_stdlib.zip');
    }
  });
});
