// Writes src/adapters/llm/webllm/prebuilt-models.json: the chat models of the installed web-llm's
// prebuilt list, so the app's model list needs none of web-llm's JavaScript. Run it after
// upgrading @mlc-ai/web-llm (tests/adapters/llm/webllm/prebuilt-models.test.ts says when):
//   npx tsx scripts/write-webllm-models.ts
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import { format } from 'prettier';
import { chatModelsOf } from '../src/adapters/llm/webllm/model-catalog.ts';

const file = fileURLToPath(new URL('../src/adapters/llm/webllm/prebuilt-models.json', import.meta.url));
const records = chatModelsOf(prebuiltAppConfig).map((model) => model.record);
writeFileSync(file, await format(JSON.stringify(records), { parser: 'json' }));
process.stdout.write(`wrote ${file}\n`);
