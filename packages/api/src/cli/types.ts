import type { Config } from '../config.ts';

export interface Command {
  name: string;
  summary: string;
  /** Returns the process exit code. */
  run(args: string[], config: Readonly<Config>): Promise<number>;
}
