// Writes the `Config` interface's field comments in src/core/knobs/config-interface.ts from the config table's
// `doc` texts. Run it after adding or rewording a row (tests/core/config-docs.test.ts says when):
//   npx tsx scripts/write-config-docs.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { KNOBS } from '../src/core/config-table.ts';
import { withConfigDocs } from './config-docs.ts';

const file = fileURLToPath(new URL('../src/core/knobs/config-interface.ts', import.meta.url));
const docs = Object.fromEntries(KNOBS.map((knob) => [knob.key, knob.doc]));
writeFileSync(file, withConfigDocs(readFileSync(file, 'utf8'), docs));
process.stdout.write(`wrote ${file}\n`);
