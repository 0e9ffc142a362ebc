// The `Config` interface's field comments, made from the config table's `doc` texts, so an editor's
// hover on a config field shows what its row says (scripts/write-config-docs.ts writes them).

/** Longest comment line written, in characters. */
const WIDTH = 110;

/** One field's doc comment at two spaces of indent: one line when it fits, else wrapped words. */
function docComment(doc: string): string[] {
  if (doc.includes('*/')) throw new Error(`a doc text cannot hold */: ${doc}`);
  if (`  /** ${doc} */`.length <= WIDTH) return [`  /** ${doc} */`];
  const lines = ['  /**'];
  for (const word of doc.split(/\s+/)) {
    const last = lines[lines.length - 1]!;
    if (last !== '  /**' && `${last} ${word}`.length <= WIDTH) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(`   * ${word}`);
  }
  lines.splice(0, 1);
  return ['  /**', ...lines, '   */'];
}

/** `source` (src/core/knobs/config-interface.ts) with every field of `export interface Config` preceded by exactly its doc from `docs`; throws on a field without one. */
export function withConfigDocs(source: string, docs: Readonly<Record<string, string>>): string {
  const start = source.indexOf('export interface Config {\n');
  const end = source.indexOf('\n}\n', start);
  if (start < 0 || end < 0) throw new Error('no `export interface Config {` block found');
  const bodyStart = start + 'export interface Config {\n'.length;
  const fields = source
    .slice(bodyStart, end)
    .split('\n')
    .filter((line) => !/^\s*(\/\*\*|\*)/.test(line));
  const body = fields.flatMap((line) => {
    const key = /^ {2}(\w+)\??:/.exec(line)?.[1];
    if (key === undefined) throw new Error(`not a field of Config: ${JSON.stringify(line)}`);
    const doc = docs[key];
    if (doc === undefined) throw new Error(`the config table has no doc for ${key}`);
    return [...docComment(doc), line];
  });
  return source.slice(0, bodyStart) + body.join('\n') + source.slice(end);
}
