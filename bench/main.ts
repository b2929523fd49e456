// How a benchmark script ends: its exit code (1 when a check failed), or 2 with the reason when it
// could not run (Java missing for DynamoDB Local: its message alone).
import { JavaMissingError } from '../lib/local/dynamo.js';

export function runBench(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (err: Error) => {
      console.error(err instanceof JavaMissingError ? err.message : (err?.stack ?? String(err)));
      process.exit(2);
    },
  );
}
