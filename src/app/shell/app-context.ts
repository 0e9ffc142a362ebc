import { OpenAIChatModel } from '../../adapters/llm/openai/openai-chat-model.ts';
import { parseChatScript } from '../../adapters/llm/scripted/scripted-chat-model.ts';
import { scriptedModel } from '../../adapters/llm/scripted/scripted-learner.ts';
import { openIndexedDbRunStore } from '../../adapters/store/idb-run-store.ts';
import { createBrowserSandboxRuntime, type BrowserSandboxRuntime } from '../../adapters/sandbox/browser-sandbox.ts';
import { browserServiceWorker } from '../../adapters/offline/sw-register.ts';
import { sandboxAssets } from 'virtual:spade-sandbox';
import type { ChatModel } from '../../core/ports/chat-port.ts';
import type { RunMeta } from '../../core/ports/store-port.ts';
import { ModelSetupController } from '../models/model-setup.svelte.ts';
import { CpuModelController } from '../models/cpu-model.svelte.ts';
import { parseModelId, webllmModelId } from '../../adapters/llm/model-id.ts';
import { RunController } from '../run/run-controller.svelte.ts';
import { RunLibrary } from '../library/run-library.svelte.ts';
import { Comparison } from '../compare/comparison.svelte.ts';
import { SweepController } from '../compare/sweep.svelte.ts';
import { localSweepStorage } from '../compare/sweep-plan.ts';
import { runViews, type RunViews } from './run-views.ts';
import { sandboxActions, type SandboxActions } from '../sandbox/sandbox-actions.ts';
import { dataActions, saveFile, type DataActions } from '../library/data-actions.ts';
import { activeGroundingCorpus } from '../new-run/corpus-source.ts';
import { currentDemoSpeed, DEMO_PIECE_DELAY_MS } from '../run/demo-speed.ts';
import { currentScoreHold } from '../run/score-hold.ts';
import { readPickedFiles } from '../../adapters/store/import-run.ts';
import { toImportFiles } from '../../adapters/store/import-read.ts';
import type { Suite } from '../../core/eval/suite.ts';
import { FixedPoolPicker } from '../suites/fixed-pool.svelte.ts';
import { HeldOutChoice } from '../suites/held-out-choice.svelte.ts';
import { PlaybookController } from '../run/playbook.svelte.ts';
import { PythonStatus, type PythonStart } from './python-status.svelte.ts';
import { AppUpdate } from './app-update.svelte.ts';
import { LectureMode } from './lecture-mode.svelte.ts';
import { browserTabLink } from '../../adapters/tabs/tab-link.ts';
import { RunPresence } from '../run/run-presence.svelte.ts';
import { asAnnouncement } from '../run/run-announcement.ts';
import {
  BUILTIN_SUITE_FOLDER,
  BUILTIN_SUITE_NAME,
  loadServedSuite,
  readServedPool,
  STARTER_POOL_FOLDER,
  STARTER_POOL_NAME,
  type PoolFiles,
} from '../suites/suite-source.ts';

import { DEMO_MODEL_ID, demoScriptPath, isDemoModel } from '../models/demo-models.ts';

export { errorMessage } from '../../core/error-message.ts';
export { formatModelId, parseModelId, webllmModelId, type ModelId } from '../../adapters/llm/model-id.ts';
export { DEMO_MODEL_ID, TOOL_USE_DEMO_MODEL_ID, isDemoModel, startingConfig } from '../models/demo-models.ts';

/** Streamed text reaches the screen at most this often, in milliseconds (keeps layout work small). */
export const UI_FLUSH_MS = 100;

/** Everything the UI talks to: its one door to the app (components never reach the store or the sandbox runtime). */
export interface AppContext {
  /** The open run: create, open, start, pause, step, resume, abort, and its live state. */
  runs: RunController;
  /** Every stored run: the list, open, create, and delete (never a running run). */
  library: RunLibrary;
  modelSetup: ModelSetupController;
  /** The CPU (wllama, GGUF) backend for browsers without WebGPU. */
  cpu: CpuModelController;
  /** What the views read from stored runs (Learn, Charts, Explorer, an environment's page). */
  views: RunViews;
  /** What the views run in the sandbox: validate, play, re-score with a run's model. */
  sandbox: SandboxActions;
  /** Export and import of runs, pools and corpora. */
  data: DataActions;
  /** The open run's playbook (a tab addition): its lessons and a person's edits between epochs. */
  playbook: PlaybookController;
  /** The new-run form's fixed pool (the baseline without a designer): bundled or imported, validated. */
  pools: FixedPoolPicker;
  /** The held-out suite chosen for a new run's scheduled evaluations, and the one "Evaluate now" plays. */
  suites: { scheduled: HeldOutChoice; onDemand: HeldOutChoice };
  /** Remembers an API key for an OpenAI-compatible server for this tab only (never stored). */
  setApiKey(baseUrl: string, key: string): void;
  /** Remembers the context window a person gave for an OpenAI-compatible server, for this tab only (without one the server is asked). */
  setContextWindow(baseUrl: string, tokens: number): void;
  /** Runs side by side: the selection, the comparison and its CSV export. */
  compare: Comparison;
  /** A sweep over settings and seeds, its runs run one after another (kept across reloads). */
  sweep: SweepController;
  /** The Python sandbox, started on its first need or when a new run's form opens: idle, starting (with an estimate), ready or failed. */
  python: PythonStatus;
  /** True when a run with this model id can start now (a demo or a server, or the loaded WebGPU or CPU model). */
  modelReady(modelId: string): boolean;
  /** Lecture mode (large type, the live view following the work, keyboard shortcuts), kept across visits. */
  lecture: LectureMode;
}

const assetUrl = (path: string) => `${import.meta.env.BASE_URL}${path}`;

async function fetchText(path: string, what: string): Promise<string> {
  const response = await fetch(assetUrl(path));
  if (!response.ok) throw new Error(`Could not load the ${what} (HTTP ${response.status}); reload the page.`);
  return response.text();
}

/** Reads picked pool files (zips expanded) as the pool reader reads them. */
async function readPickedPool(picked: File[]): Promise<PoolFiles> {
  const read = await readPickedFiles(picked);
  const converted = await toImportFiles(read.files);
  return { files: converted.files, problems: [...read.problems, ...converted.problems] };
}

/** Warms the sandbox; resolves with why Python started cold (the build's snapshot was not used), or with nothing when it started from that snapshot. */
async function warmSandbox(sandbox: BrowserSandboxRuntime): Promise<PythonStart> {
  await sandbox.warm();
  const use = sandbox.snapshotUse();
  if (use && !use.fromBuild) return { coldBecause: `the build's Python snapshot ${use.why}` };
}

/** The app's offline state and updates, wired to the service worker (built before the context, so the app registers for offline use even when the run database cannot open). */
export function createAppUpdate(): AppUpdate {
  return new AppUpdate(browserServiceWorker());
}

/** Builds the app: IndexedDB store, browser sandbox, models, the run controller, and the UI's door onto them. */
export async function createAppContext(onStoreClosed: (reason: string) => void): Promise<AppContext> {
  // The context owns the app's one browser sandbox. Python starts on its first real need (anything
  // that takes the sandbox) or when a new run's form opens (App.svelte), not with the page: a visit
  // that only reads stored runs never boots it.
  const runtime = createBrowserSandboxRuntime(sandboxAssets);
  const python = new PythonStatus(() => warmSandbox(runtime));
  const sandbox = () => {
    void python.start();
    return runtime;
  };
  const store = await openIndexedDbRunStore({ onClosed: (reason) => onStoreClosed(reason) });
  const modelSetup = new ModelSetupController();
  const cpu = new CpuModelController();
  const apiKeys = new Map<string, string>();
  const contextWindows = new Map<string, number>();

  const model = async (meta: RunMeta): Promise<ChatModel> => {
    const demoScript = demoScriptPath(meta.modelId);
    if (demoScript) {
      const script = parseChatScript(JSON.parse(await fetchText(demoScript, 'demo session')));
      const id = parseModelId(meta.modelId);
      return scriptedModel(
        script,
        id?.kind === 'scripted' ? id.name : undefined,
        () => DEMO_PIECE_DELAY_MS[currentDemoSpeed()],
      );
    }
    const id = parseModelId(meta.modelId);
    if (id?.kind === 'openai') {
      const apiKey = apiKeys.get(id.baseUrl);
      const contextWindow = contextWindows.get(id.baseUrl);
      return new OpenAIChatModel({
        baseUrl: id.baseUrl,
        model: id.model,
        ...(apiKey ? { apiKey } : {}),
        ...(contextWindow ? { contextWindow } : {}),
      });
    }
    if (id?.kind === 'wllama') {
      const cpuModel = cpu.chatModel();
      if (!cpuModel || cpuModel.id !== meta.modelId) {
        throw new Error(`This run uses the CPU model ${id.file}; load that file under Model first, then continue.`);
      }
      return cpuModel;
    }
    const loaded = modelSetup.chatModel();
    if (id?.kind !== 'webllm' || !loaded || webllmModelId(modelSetup.state.loadedId ?? '') !== meta.modelId) {
      throw new Error(
        `This run uses ${id?.kind === 'webllm' ? id.model : meta.modelId}; load that model in Setup first, then resume.`,
      );
    }
    return loaded;
  };

  const fetchAsset = (path: string) => fetchText(path, `file ${path}`);
  let builtinSuite: Promise<Suite> | null = null;
  const heldOut = () => {
    builtinSuite ??= loadServedSuite(fetchAsset, BUILTIN_SUITE_FOLDER, BUILTIN_SUITE_NAME).catch((error: unknown) => {
      builtinSuite = null;
      throw error;
    });
    return builtinSuite;
  };
  const link = browserTabLink(asAnnouncement);
  const presence = new RunPresence(link);
  const runs = new RunController({
    store,
    sandbox,
    corpus: activeGroundingCorpus,
    model,
    suite: heldOut,
    lock: link.lock,
    presence,
    schedule: (flush) => setTimeout(() => requestAnimationFrame(() => flush()), UI_FLUSH_MS),
    scoreHold: currentScoreHold,
  });
  modelSetup.onModelEvent((event) => {
    if (event.type === 'device-lost') runs.pause();
    if (event.type === 'recovered') runs.resume();
  });
  cpu.onModelEvent((event) => {
    if (event.type === 'unloaded') runs.pause();
  });
  const library = new RunLibrary({ store, run: runs, lock: link.lock, presence });
  const modelReady = (modelId: string): boolean => {
    const id = parseModelId(modelId);
    if (isDemoModel(modelId) || id?.kind === 'openai') return true;
    if (id?.kind === 'wllama') return cpu.chatModel()?.id === modelId;
    return id?.kind === 'webllm' && webllmModelId(modelSetup.state.loadedId ?? '') === modelId;
  };
  return {
    runs,
    library,
    modelSetup,
    cpu,
    views: runViews(store),
    sandbox: sandboxActions(sandbox, (meta) => runs.modelFor(meta)),
    data: dataActions(store, sandbox, async (runId) => ((await library.delete(runId)) ? null : library.deleteError)),
    playbook: new PlaybookController({ store, run: runs }),
    pools: new FixedPoolPicker({
      sandbox,
      heldOut,
      bundled: async () => ({ name: STARTER_POOL_NAME, read: await readServedPool(fetchAsset, STARTER_POOL_FOLDER) }),
      readPicked: readPickedPool,
    }),
    suites: {
      scheduled: new HeldOutChoice({
        store,
        builtin: heldOut,
        imported: new FixedPoolPicker({ sandbox, readPicked: readPickedPool }),
      }),
      onDemand: new HeldOutChoice({
        store,
        builtin: heldOut,
        imported: new FixedPoolPicker({ sandbox, readPicked: readPickedPool }),
      }),
    },
    setApiKey: (baseUrl, key) => apiKeys.set(baseUrl, key),
    setContextWindow: (baseUrl, tokens) => contextWindows.set(baseUrl, tokens),
    compare: new Comparison({ store, save: saveFile }),
    sweep: new SweepController({
      run: runs,
      refreshRuns: () => library.refresh(),
      storage: localSweepStorage(() => localStorage),
      store,
      demoModelId: DEMO_MODEL_ID,
      modelReady,
      lock: link.lock,
    }),
    python,
    modelReady,
    lecture: new LectureMode(),
  };
}
