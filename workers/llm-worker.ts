// The LLM worker: hosts web-llm's engine behind its own worker protocol, reports lost GPU
// devices, and says when it is listening. Owned on the page by WebLlmSession.
import { WebWorkerMLCEngineHandler } from '@mlc-ai/web-llm';
import { watchDeviceLoss } from '../src/adapters/llm/webllm/webllm-device-watch.ts';
import type { WorkerNotice } from '../src/adapters/llm/webllm/webllm-protocol.ts';

const notify = (notice: WorkerNotice): void => self.postMessage(notice);
watchDeviceLoss(notify);
const handler = new WebWorkerMLCEngineHandler();
self.onmessage = (event: MessageEvent) => handler.onmessage(event);
notify({ kind: 'spade:ready' });
