// The bearer tokens tests sign in with: signed by the local development issuer (lib/local/dev-auth.ts),
// whose key the test setup and the local runtime trust.
import type { Role } from '#lib/contract/principal.js';
import { ensureDevKeys, mintToken, type MintOptions } from '#lib/local/dev-auth.js';

/** A token of `role` (an editor unless named) for the subject `sub`. */
export async function roleToken(role: Role = 'editor', sub?: string, more: Omit<MintOptions, 'role' | 'sub'> = {}): Promise<string> {
  return mintToken(await ensureDevKeys('.local'), { ...more, role, sub });
}
