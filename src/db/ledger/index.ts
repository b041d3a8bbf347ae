// The ledger's tables (migration 20261207090000): appending journals, and reading balances and holdings.
export * from './post';
export * from './reads';
export * from './exports';
export * from './reserves';
