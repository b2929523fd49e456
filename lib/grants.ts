// What a function may do with the table. The stack turns each operation's list into its IAM
// policy, and the local runtime enforces the same list on every request, so a read function that
// tries to write fails locally exactly as it would on AWS.

/** DynamoDB actions, without the `dynamodb:` prefix. Transactions need the actions of their items. */
export type TableAction = 'GetItem' | 'BatchGetItem' | 'Query' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'ConditionCheckItem';

export const READ_ACTIONS: readonly TableAction[] = ['GetItem', 'BatchGetItem', 'Query'];
export const WRITE_ACTIONS: readonly TableAction[] = [...READ_ACTIONS, 'PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'];

/** The only action that addresses the table's indexes (`<table>/index/*`); the rest name base-table keys. */
export const INDEX_ACTIONS: readonly TableAction[] = ['Query'];

export const iamAction = (action: string) => `dynamodb:${action}`;
