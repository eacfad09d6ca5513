import { closeSync, fstatSync, openSync, readFileSync } from "node:fs";
import { ConfigError } from "./config-error.ts";

/**
 * The file's text, or undefined when it does not exist. A key file that group or others may read
 * is refused rather than used (anyone holding the signing key mints sessions; the card data key
 * opens card numbers); `variable` is the setting that replaces the file.
 */
export function readPrivateFile(file: string, variable: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    const mode = fstatSync(fd).mode & 0o777;
    if (process.platform !== "win32" && (mode & 0o077) !== 0)
      throw new ConfigError("DATA_DIR", `${file} is readable by other users (mode ${mode.toString(8)}); run chmod 600 on it, or set ${variable}`);
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}
