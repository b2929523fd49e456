// A setting of the environment for one test file.
import { afterAll } from 'vitest';
import { resetConfig } from '#lib/runtime/config.js';

/** Sets `name` now (before the file's imports read the configuration) and restores it after the file. */
export function useEnv(name: string, value: string): void {
  const previous = process.env[name];
  process.env[name] = value;
  resetConfig();
  afterAll(() => {
    if (previous === undefined) delete process.env[name];
    else process.env[name] = previous;
    resetConfig();
  });
}
