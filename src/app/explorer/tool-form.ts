import { toolCallAction } from '../../core/prompts/tool-call-parse.ts';

/** One parameter of a tool, as the play-it-yourself form asks for it. */
export interface ToolParameterField {
  name: string;
  /** The JSON-schema type (`string` when the schema names none or something unusual). */
  type: 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object';
  /** The allowed values of an `enum` parameter (as JSON values), else null. */
  choices: unknown[] | null;
  required: boolean;
  description: string;
}

/** A tool as the form offers it. */
export interface ToolFormSpec {
  name: string;
  description: string;
  parameters: ToolParameterField[];
}

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The tools of `get_tools()` (function-calling form) as form specs; entries that are not in that form are left out. */
export function toolFormSpecs(tools: unknown): ToolFormSpec[] {
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((tool: unknown) => {
    const fn = isRecord(tool) && isRecord(tool.function) ? tool.function : null;
    if (!fn || typeof fn.name !== 'string') return [];
    const schema = isRecord(fn.parameters) ? fn.parameters : {};
    const properties = isRecord(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required) ? schema.required : [];
    const parameters = Object.entries(properties).map(([name, raw]): ToolParameterField => {
      const property = isRecord(raw) ? raw : {};
      const type =
        typeof property.type === 'string' && TYPES.has(property.type)
          ? (property.type as ToolParameterField['type'])
          : 'string';
      return {
        name,
        type,
        choices: Array.isArray(property.enum) && property.enum.length > 0 ? property.enum : null,
        required: required.includes(name),
        description: typeof property.description === 'string' ? property.description : '',
      };
    });
    return [{ name: fn.name, description: typeof fn.description === 'string' ? fn.description : '', parameters }];
  });
}

/**
 * The text the form shows and sends for each of a parameter's choices: a string as it is, another
 * value as JSON; every one as JSON when that would show two alike (an enum `[1, "1"]`).
 */
export function choiceTexts(choices: readonly unknown[]): string[] {
  const json = (c: unknown) => JSON.stringify(c) ?? String(c);
  const plain = choices.map((c) => (typeof c === 'string' ? c : json(c)));
  return new Set(plain).size === plain.length ? plain : choices.map(json);
}

function fieldValue(field: ToolParameterField, text: string): { value: unknown } | { error: string } {
  if (field.choices) {
    const index = choiceTexts(field.choices).indexOf(text);
    return index < 0 ? { error: `choose one of the values of ${field.name}` } : { value: field.choices[index] };
  }
  if (field.type === 'string') return { value: text };
  if (field.type === 'number' || field.type === 'integer') {
    const number = Number(text);
    if (text.trim() === '' || !Number.isFinite(number) || (field.type === 'integer' && !Number.isInteger(number)))
      return { error: `${field.name} needs ${field.type === 'integer' ? 'a whole number' : 'a number'}` };
    return { value: number };
  }
  if (field.type === 'boolean')
    return text === 'true' || text === 'false'
      ? { value: text === 'true' }
      : { error: `${field.name} needs true or false` };
  try {
    const parsed: unknown = JSON.parse(text);
    if (field.type === 'array' ? Array.isArray(parsed) : isRecord(parsed)) return { value: parsed };
  } catch {
    // Reported below.
  }
  return {
    error: `${field.name} needs a JSON ${field.type === 'array' ? 'list, e.g. ["a", "b"]' : 'object, e.g. {"key": "value"}'}`,
  };
}

/**
 * The `<tool_call>` text an agent would send for `tool` with the typed values (each read by its
 * schema type; an empty optional field is left out), or the first problem with them.
 */
export function toolCallText(
  tool: ToolFormSpec,
  values: Readonly<Record<string, string>>,
): { text: string } | { error: string } {
  const args: Record<string, unknown> = {};
  for (const field of tool.parameters) {
    const text = values[field.name] ?? '';
    if (text === '') {
      if (field.required) return { error: `${field.name} is required` };
      continue;
    }
    const read = fieldValue(field, text);
    if ('error' in read) return read;
    args[field.name] = read.value;
  }
  return { text: toolCallAction({ name: tool.name, arguments: args }) };
}

/** The text an agent sends to give its final answer. */
export function answerText(answer: string): string {
  return `<answer>${answer.trim()}</answer>`;
}
