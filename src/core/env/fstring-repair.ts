/** Result of asking Python whether a source text parses. */
export type SyntaxCheck = { ok: true } | { ok: false; line: number | null; message: string };

/** Asks Python to parse `source` as a module (`exec`) or a single expression (`eval`). */
export type CheckSyntax = (source: string, mode: 'exec' | 'eval') => Promise<SyntaxCheck>;

const SINGLE_BRACE_GROUP = /\{([^{}]*)\}/g;

/**
 * SPADE's f-string brace repair: while the code does not parse, take the failing line and
 * double every `{...}` group whose inside is not a valid Python expression; stop when the code
 * parses, the line does not change, or after `maxIterations` rounds. Returns the (maybe) repaired code.
 */
export async function repairFStringBraces(
  code: string,
  checkSyntax: CheckSyntax,
  maxIterations = 20,
): Promise<{ code: string; repairedLines: number[] }> {
  const repairedLines: number[] = [];
  let current = code;
  for (let round = 0; round < maxIterations; round++) {
    const check = await checkSyntax(current, 'exec');
    if (check.ok || check.line === null) break;
    const lines = current.split('\n');
    const index = check.line - 1;
    const line = lines[index];
    if (line === undefined) break;
    const repaired = await doubleInvalidBraceGroups(line, checkSyntax);
    if (repaired === line) break;
    lines[index] = repaired;
    repairedLines.push(check.line);
    current = lines.join('\n');
  }
  return { code: current, repairedLines };
}

async function doubleInvalidBraceGroups(line: string, checkSyntax: CheckSyntax): Promise<string> {
  const groups = [...line.matchAll(SINGLE_BRACE_GROUP)];
  let result = '';
  let last = 0;
  for (const group of groups) {
    const inner = group[1]!;
    const start = group.index;
    const valid = (await checkSyntax(inner, 'eval')).ok;
    result += line.slice(last, start) + (valid ? group[0] : `{{${inner}}}`);
    last = start + group[0].length;
  }
  return result + line.slice(last);
}
