/** A configuration problem: start-up prints `message` (which names the variable) and exits. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    readonly problem: string,
  ) {
    super(`${variable}: ${problem}`);
    this.name = "ConfigError";
  }
}
