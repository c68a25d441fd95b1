// The accounts domain in one import, for the API server, the web app and the CLI.
export * from './accounts.ts';
export * from './api-access.ts';
export * from './contacts.ts';
export * from './errors.ts';
export * from './passwords.ts';
export * from './plans.ts';
export * from './time.ts';
export * from './token-format.ts';
export * from './tokens.ts';
export * from './usage.ts';
export * from './users.ts';
