// Whether reformatting Svelte markup (prettier rewrapping long lines) changed what a component renders.
// Both versions are compiled with the Svelte compiler, and their outputs compared: the code with all
// whitespace removed, and every string (the static HTML and text the component writes) with each run of
// HTML whitespace read as one space, as the browser shows text under `white-space: normal`. What is
// left is a change a reader could see. Text that only moved to another line is listed separately for
// components that show whitespace (a `<pre>`, `<textarea>` or `white-space: pre*` rule), where it shows.
import ts from 'typescript';
import { compile } from 'svelte/compiler';

const HTML_WHITESPACE_RUN = /[ \t\n\r\f]+/g;
const SCOPE_CLASS = /svelte-[a-z0-9]+/g;
const SHOWS_WHITESPACE = /<pre\b|<textarea\b|white-space:\s*(pre|pre-wrap|pre-line|break-spaces)\b/;

/** What a reformat changed in one component: `rendered` lists changes a reader can see anywhere; `whitespace` lists strings whose line breaks moved in a component that shows whitespace. */
export interface RewrapReport {
  rendered: string[];
  whitespace: string[];
}

// The string literals and template pieces of compiled component code, in source order.
function strings(code: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node))
      found.push(node.text.replace(SCOPE_CLASS, 'svelte-_'));
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('component.js', code, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS));
  return found;
}

// Where `after` first departs from `before`, with some text either side, for a person to find the spot.
function around(before: string, after: string): string {
  let i = 0;
  while (i < before.length && before[i] === after[i]) i++;
  return JSON.stringify(after.slice(Math.max(0, i - 40), i + 40));
}

// The compiled code with every string and template piece emptied and whitespace removed: the component's logic, which a reformat must leave alone.
function shape(code: string): string {
  const empty: ts.TransformerFactory<ts.SourceFile> = (context) => (root) => {
    const visit = (node: ts.Node): ts.Node => {
      if (ts.isStringLiteral(node)) return ts.factory.createStringLiteral('');
      if (ts.isNoSubstitutionTemplateLiteral(node)) return ts.factory.createNoSubstitutionTemplateLiteral('');
      if (ts.isTemplateHead(node)) return ts.factory.createTemplateHead('');
      if (ts.isTemplateMiddle(node)) return ts.factory.createTemplateMiddle('');
      if (ts.isTemplateTail(node)) return ts.factory.createTemplateTail('');
      return ts.visitEachChild(node, visit, context);
    };
    return ts.visitNode(root, visit) as ts.SourceFile;
  };
  const file = ts.createSourceFile('component.js', code, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  return ts
    .createPrinter()
    .printFile(ts.transform(file, [empty]).transformed[0]!)
    .replace(/\s+/g, '');
}

/** Compares the compiled output of two versions of the Svelte component `filename`. */
export function compareRewrap(before: string, after: string, filename: string): RewrapReport {
  const compiled = (source: string) => compile(source, { filename, generate: 'client', dev: false }).js.code;
  const [codeBefore, codeAfter] = [compiled(before), compiled(after)];
  const rendered: string[] = [];
  const whitespace: string[] = [];
  if (shape(codeBefore) !== shape(codeAfter))
    rendered.push(`${filename}: the compiled code differs beyond its strings`);
  const [textBefore, textAfter] = [strings(codeBefore), strings(codeAfter)];
  if (textBefore.length !== textAfter.length)
    rendered.push(`${filename}: ${textBefore.length} strings before, ${textAfter.length} after`);
  textBefore.forEach((text, i) => {
    const other = textAfter[i] ?? '';
    if (text === other) return;
    if (text.replace(HTML_WHITESPACE_RUN, ' ') !== other.replace(HTML_WHITESPACE_RUN, ' '))
      rendered.push(`${filename}: ${JSON.stringify(text)} became ${JSON.stringify(other)}`);
    else if (SHOWS_WHITESPACE.test(after)) whitespace.push(`${filename}: ${around(text, other)}`);
  });
  return { rendered, whitespace };
}
