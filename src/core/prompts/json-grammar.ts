import { GbnfBuilder, gbnfLiteral, jsonLiteral, repeat } from './gbnf.ts';

// Every JSON value the grammar allows is bounded: strings, digits, items and nesting, so a
// constrained reply always ends. A schema is untrusted input: anything unexpected falls back to
// a generic value, and only so much of it is shaped.

/** Most items of a generic array or members of a generic object. */
const GENERIC_ITEMS = 8;
/** Deepest nesting of a generic value below the arguments object. */
const GENERIC_DEPTH = 2;
/** Deepest nesting the schema shapes (deeper parts are generic). */
const SHAPED_DEPTH = 2;
/** Most properties of one object the schema shapes (a larger object is generic). */
export const SHAPED_PROPERTIES = 64;
/** Most enum members the schema shapes (a longer enum falls back to the type). */
const SHAPED_ENUM = 256;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Builds the JSON parts of a grammar, sharing its rules. */
export class JsonGrammar {
  /** `stringChars`: the longest string value, in characters. */
  constructor(
    private readonly builder: GbnfBuilder,
    private readonly stringChars: number,
  ) {}

  /** Optional single space between JSON tokens. */
  ws(): string {
    return this.builder.rule('" "?', 'ws');
  }

  /** A JSON string of at most `stringChars` characters, `<` only as `\u003c` (so no tag appears inside a call). */
  string(): string {
    const char = this.builder.rule(
      '[^\\x22\\x5C\\x00-\\x1F\\x3C] | "\\\\" [\\x22\\x5C/bfnrt] | "\\\\u" [0-9a-fA-F]{4,4}',
      'sc',
    );
    return this.builder.rule(`"\\"" ${repeat(char, 0, this.stringChars)} "\\""`, 'str');
  }

  /** A JSON integer of at most 16 digits. */
  integer(): string {
    return this.builder.rule('"-"? ("0" | [1-9] [0-9]{0,15})', 'int');
  }

  /** A JSON number: an integer with an optional fraction and exponent. */
  number(): string {
    return this.builder.rule(`${this.integer()} ("." [0-9]{1,15})? ([eE] [-+]? [0-9]{1,3})?`, 'num');
  }

  /** Any JSON value nested at most `depth` levels (0: scalars only). */
  generic(depth = GENERIC_DEPTH): string {
    const scalars = [this.string(), this.number(), '"true"', '"false"', '"null"'];
    if (depth <= 0) return this.builder.rule(scalars.join(' | '), 'any');
    return this.builder.rule([...scalars, this.genericArray(depth), this.genericObject(depth)].join(' | '), 'any');
  }

  /** A JSON array of at most GENERIC_ITEMS generic values nested below `depth`. */
  genericArray(depth = GENERIC_DEPTH): string {
    return this.list('[', ']', this.generic(depth - 1));
  }

  /** A JSON object of at most GENERIC_ITEMS members whose values are nested below `depth`. */
  genericObject(depth = GENERIC_DEPTH): string {
    const ws = this.ws();
    return this.list('{', '}', this.builder.rule(`${this.string()} ${ws} ":" ${ws} ${this.generic(depth - 1)}`, 'mem'));
  }

  /** The value a JSON schema describes: its enum or const, its type (or a list of them), else a generic value. */
  schemaValue(schema: unknown, depth = 0): string {
    if (!isRecord(schema)) return this.generic();
    const fixed = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : null;
    if (fixed && fixed.length > 0 && fixed.length <= SHAPED_ENUM) {
      const literals = [...new Set(fixed.map(jsonLiteral).filter((l): l is string => l !== null))];
      if (literals.length > 0) return this.builder.rule(literals.join(' | '), 'enum');
    }
    const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter(
      (t): t is string => typeof t === 'string',
    );
    const shaped = [...new Set(types)].map((type) => this.typed(type, schema, depth));
    return shaped.length === 0 || shaped.includes(null) ? this.generic() : this.builder.rule(shaped.join(' | '), 'val');
  }

  /** An object with the schema's properties: the required ones first in their order, then any of the others in property order. */
  schemaObject(schema: Record<string, unknown>, depth = 0): string {
    const properties = schema.properties;
    if (!isRecord(properties) || Object.keys(properties).length > SHAPED_PROPERTIES || depth > SHAPED_DEPTH)
      return this.genericObject(GENERIC_DEPTH + 1);
    const ws = this.ws();
    const keys = Object.keys(properties);
    const required = [
      ...new Set(
        Array.isArray(schema.required)
          ? schema.required.filter((k): k is string => typeof k === 'string' && Object.hasOwn(properties, k))
          : [],
      ),
    ];
    const optional = keys.filter((k) => !required.includes(k));
    const member = (key: string) =>
      this.builder.rule(`${jsonLiteral(key)!} ${ws} ":" ${ws} ${this.schemaValue(properties[key], depth + 1)}`, 'mem');
    // tails[j]: any of optional[j..] in order, each after a comma; firsts[j]: the first present one and its tail.
    const tails: string[] = [];
    const firsts: string[] = [];
    for (let j = optional.length - 1; j >= 0; j--) {
      const item = member(optional[j]!);
      const tail = tails[j + 1];
      tails[j] = this.builder.rule(`("," ${ws} ${item})?${tail ? ` ${tail}` : ''}`, 'tail');
      firsts[j] = this.builder.rule(
        firsts[j + 1] ? `${item}${tail ? ` ${tail}` : ''} | ${firsts[j + 1]}` : item,
        'first',
      );
    }
    const body =
      required.length > 0
        ? [required.map(member).join(` "," ${ws} `), tails[0] ?? ''].filter((p) => p !== '').join(' ')
        : firsts[0]
          ? `${firsts[0]}?`
          : '';
    return this.builder.rule(`"{" ${ws} ${body === '' ? '' : `${body} ${ws} `}"}"`, 'obj');
  }

  private typed(type: string, schema: Record<string, unknown>, depth: number): string | null {
    switch (type) {
      case 'string':
        return this.string();
      case 'integer':
        return this.integer();
      case 'number':
        return this.number();
      case 'boolean':
        return '"true" | "false"';
      case 'null':
        return '"null"';
      case 'array':
        return depth < SHAPED_DEPTH && isRecord(schema.items)
          ? this.list('[', ']', this.schemaValue(schema.items, depth + 1))
          : this.genericArray();
      case 'object':
        return depth < SHAPED_DEPTH ? this.schemaObject(schema, depth + 1) : this.genericObject();
      default:
        return null;
    }
  }

  private list(open: string, close: string, item: string): string {
    const ws = this.ws();
    return this.builder.rule(
      `${gbnfLiteral(open)} ${ws} (${item} ${repeat(`("," ${ws} ${item})`, 0, GENERIC_ITEMS - 1)} ${ws})? ${gbnfLiteral(close)}`,
      'list',
    );
  }
}
