/** The parts of Pyodide's Emscripten module the builtin-table patch reads and writes. */
export interface InittabMemory {
  HEAPU8: Uint8Array;
  HEAPU32: Uint32Array;
  /** Address of CPython's `PyImport_Inittab` pointer. */
  _PyImport_Inittab: number;
  /** Address of CPython's `_PyRuntime` state, which holds the table copy imports consult. */
  __PyRuntime: number;
}

const ENTRY_WORDS = 2; // struct _inittab { const char *name; PyObject *(*initfunc)(void); }
const RUNTIME_SCAN_WORDS = 1 << 18;

function cString(memory: InittabMemory, address: number): string {
  let text = '';
  for (let at = address; memory.HEAPU8[at] !== 0; at++) text += String.fromCharCode(memory.HEAPU8[at]!);
  return text;
}

// Keeps the entries whose name is not blocked, in order, and moves the terminator up.
function compact(memory: InittabMemory, table: number, blocked: ReadonlySet<string>): string[] {
  const heap = memory.HEAPU32;
  const removed: string[] = [];
  let write = table >>> 2;
  for (let read = table >>> 2; heap[read] !== 0; read += ENTRY_WORDS) {
    const name = cString(memory, heap[read]!);
    if (blocked.has(name)) {
      removed.push(name);
      continue;
    }
    heap[write] = heap[read]!;
    heap[write + 1] = heap[read + 1]!;
    write += ENTRY_WORDS;
  }
  heap[write] = 0;
  heap[write + 1] = 0;
  return removed;
}

// CPython copies PyImport_Inittab into _PyRuntime at start-up and imports only read that copy:
// find the pointer in _PyRuntime to an array starting with the same two name pointers.
function runtimeCopy(memory: InittabMemory, original: number): number {
  const heap = memory.HEAPU32;
  const first = heap[original >>> 2]!;
  const second = heap[(original >>> 2) + ENTRY_WORDS]!;
  const start = memory.__PyRuntime >>> 2;
  for (let word = start; word < start + RUNTIME_SCAN_WORDS; word++) {
    const candidate = heap[word]!;
    if (
      candidate !== 0 &&
      candidate !== original &&
      candidate % 4 === 0 &&
      heap[candidate >>> 2] === first &&
      heap[(candidate >>> 2) + ENTRY_WORDS] === second
    ) {
      return candidate;
    }
  }
  throw new Error('could not find the builtin module table copy in _PyRuntime; refusing to start an unsealed sandbox');
}

/**
 * Removes `blocked` from CPython's builtin module table (the original and the runtime's copy), so
 * `_imp.is_builtin` denies them and no import can create them again. Returns the removed names.
 */
export function removeBuiltinModules(memory: InittabMemory, blocked: ReadonlySet<string>): string[] {
  const original = memory.HEAPU32[memory._PyImport_Inittab >>> 2]!;
  const copy = runtimeCopy(memory, original);
  const removed = compact(memory, copy, blocked);
  compact(memory, original, blocked);
  return removed;
}
