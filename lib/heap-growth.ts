import { setFlagsFromString } from "node:v8";

/**
 * Sets how far V8 lets the old generation grow past what its last full collection kept
 * (HEAP_GROWING_PERCENT; 0: V8's own factor). V8's own factor follows its measure of collection
 * speed and reaches 4× on this server (a live heap of about 90 MiB, and RSS over 400 MiB at the end
 * of a load); at 50 % the old space stays under 1.5× the live heap (issue 30, "Memory under load").
 * The flag cannot be given in NODE_OPTIONS, so a serving process sets it itself at start; a value on
 * node's own command line wins, since whoever wrote it chose it.
 */
export function applyHeapGrowth(percent: number, execArgv: readonly string[] = process.execArgv, setFlags: (flags: string) => void = setFlagsFromString): boolean {
  if (execArgv.some((argument) => /^--heap[-_]growing[-_]percent(=|$)/.test(argument))) return false;
  setFlags(`--heap-growing-percent=${percent}`);
  return true;
}
