// What a function may do with the table. The stack turns each operation's list into its IAM
// policy, and the local runtime enforces the same list on every request, so a read function that
// tries to write fails locally exactly as it would on AWS.

/** DynamoDB actions, without the `dynamodb:` prefix. Transactions need the actions of their items. */
export type TableAction = 'GetItem' | 'BatchGetItem' | 'Query' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'ConditionCheckItem' | 'BatchWriteItem';

export const READ_ACTIONS: readonly TableAction[] = ['GetItem', 'BatchGetItem', 'Query'];
export const WRITE_ACTIONS: readonly TableAction[] = [...READ_ACTIONS, 'PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'];

/** The only action that addresses the table's indexes (`<table>/index/*`); the rest name base-table keys. */
export const INDEX_ACTIONS: readonly TableAction[] = ['Query'];

/**
 * Actions allowed only on base-table items whose partition key starts with one of `keyPrefixes`
 * (IAM's `dynamodb:LeadingKeys` condition).
 */
export interface ScopedGrant {
  actions: readonly TableAction[];
  keyPrefixes: readonly string[];
}

/** Partitions of sign-in data: a login's pointer to its user, and a user's application passwords. */
export const LOGIN_PREFIX = 'LOGIN#';
export const CREDENTIALS_PREFIX = 'CRED#';

/**
 * Every function authenticates HTTP Basic (it reads the login and the user's passwords) and
 * keeps the user's credential record current (the role seen in a bearer token, the last use of a
 * password). Functions that may not write records get exactly that much.
 */
export const CREDENTIAL_READ: ScopedGrant = { actions: ['GetItem', 'Query'], keyPrefixes: [LOGIN_PREFIX, CREDENTIALS_PREFIX] };
export const CREDENTIAL_UPDATE: ScopedGrant = { actions: ['UpdateItem'], keyPrefixes: [CREDENTIALS_PREFIX] };

export const iamAction = (action: string) => `dynamodb:${action}`;
