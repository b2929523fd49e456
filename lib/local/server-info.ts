// What a running `npm start` tells the other scripts: its DynamoDB endpoint and table, so that
// `npm run invoke` runs against the server's data instead of a fresh empty DynamoDB.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

const FILE = '.local/server.json';

export interface ServerInfo {
  pid: number;
  endpoint: string;
  table: string;
  url: string;
  /** Where the data lives: `.local/dynamodb`, `in memory` or `DYNAMODB_ENDPOINT`. */
  data: string;
}

export function writeServerInfo(info: ServerInfo): void {
  writeFileSync(FILE, `${JSON.stringify(info, null, 2)}\n`);
}

/** Removes the file, if it is this process's. */
export function clearServerInfo(): void {
  if (readServerInfo()?.pid === process.pid) rmSync(FILE, { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The running server, or undefined (none, or a file left by one that is gone). */
export function readServerInfo(): ServerInfo | undefined {
  if (!existsSync(FILE)) return undefined;
  try {
    const info = JSON.parse(readFileSync(FILE, 'utf8')) as ServerInfo;
    return Number.isInteger(info.pid) && typeof info.endpoint === 'string' && alive(info.pid) ? info : undefined;
  } catch {
    return undefined;
  }
}
