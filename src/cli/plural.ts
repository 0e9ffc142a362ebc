/** A count with its noun for the terminal (the formats' own, so a file's problem and a CLI line count alike). */
export { count } from '../formats/plural.ts';
