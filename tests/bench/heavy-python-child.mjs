// Bench child (boot-tiering.ts): loads Pyodide and times one compute-heavy Python call, run again
// and again, so that the first calls show the code V8 starts with and the last its optimised code.
import { loadPyodide } from 'pyodide';

const HEAVY = `
def heavy():
    total = 0
    for i in range(300000):
        total += (i * i) % 7
    table = {str(i): [i, i * 2] for i in range(50000)}
    return total + len(table)
heavy()
`;

const pyodide = await loadPyodide();
const times = [];
for (let run = 0; run < 8; run++) {
  const started = performance.now();
  pyodide.runPython(HEAVY);
  times.push(performance.now() - started);
}
process.stdout.write(JSON.stringify(times));
