// The order of a user's stored roles (lib/store/credentials.ts): the newer token's role stands,
// and of two tokens of one second the lower one, whichever comes first.
import { describe, expect, it } from 'vitest';
import { roleOfNewPassword, standingRole, type RoleStamp } from '#lib/store/credentials.js';

const at = (role: RoleStamp['role'], issuedAt: number): RoleStamp => ({ role, issuedAt });

describe('standingRole', () => {
  it("takes the newer token's role, up or down, and keeps the stored one against an older token", () => {
    expect(standingRole(undefined, at('editor', 5))).toEqual(at('editor', 5));
    expect(standingRole(at('editor', 5), at('author', 6))).toEqual(at('author', 6));
    expect(standingRole(at('author', 5), at('editor', 6))).toEqual(at('editor', 6));
    expect(standingRole(at('author', 6), at('editor', 5))).toEqual(at('author', 6));
  });

  it('takes the lower role of one second, in either order', () => {
    expect(standingRole(at('editor', 5), at('author', 5))).toEqual(at('author', 5));
    expect(standingRole(at('author', 5), at('editor', 5))).toEqual(at('author', 5));
    expect(standingRole(at('contributor', 5), at('none', 5))).toEqual(at('none', 5));
  });
});

describe('roleOfNewPassword', () => {
  it('gives a password no more than the newest role, and the record what stands', () => {
    // A kept editor token after a demotion it did not see.
    expect(roleOfNewPassword({ role: 'author', roleIssuedAt: 10 }, at('editor', 5))).toEqual({ password: 'author', record: at('author', 10) });
    // An editor token of the demotion's second.
    expect(roleOfNewPassword({ role: 'author', roleIssuedAt: 10 }, at('editor', 10))).toEqual({ password: 'author', record: at('author', 10) });
    // A promotion by a newer token.
    expect(roleOfNewPassword({ role: 'author', roleIssuedAt: 10 }, at('editor', 11))).toEqual({ password: 'editor', record: at('editor', 11) });
    // No record yet, or one without a stamp: the token's role.
    expect(roleOfNewPassword(undefined, at('contributor', 3))).toEqual({ password: 'contributor', record: at('contributor', 3) });
    expect(roleOfNewPassword({ role: 'editor' }, at('author', 0))).toEqual({ password: 'author', record: at('author', 0) });
  });
});
