// The current tree's code for the API golden capture (capture.ts): the same functions the code
// before #13 had, now in their layers.
import { createAccount, suspendAccount } from '../../../../src/domain/accounts/accounts.ts';
import { storeContacts } from '../../../../src/domain/company/contacts.ts';
import { setPlan } from '../../../../src/domain/accounts/plans.ts';
import { createToken, deactivateToken } from '../../../../src/domain/accounts/tokens.ts';
import { runImport } from '../../../../importer/run.ts';
import { startServer } from '../../../../src/server/server.ts';
import { openAppStore, type AppStore } from '../../../../src/storage/app/store.ts';
import { openSqlite } from '../../../../src/storage/sqlite.ts';
import type { GoldenTree } from './capture.ts';

export const currentTree: GoldenTree<AppStore> = {
  runImport,
  async openAppDb(dataDir) {
    const app = await openAppStore(dataDir);
    return { app, close: () => app.close() };
  },
  openSqlite,
  setPlan,
  createAccount,
  createToken,
  deactivateToken,
  suspendAccount,
  storeContacts,
  startServer,
};
