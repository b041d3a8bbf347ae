/* tslint:disable */
/* eslint-disable */
export * from './APIKeysApi';
export * from './AccountApi';
export * from './BalanceApi';
export * from './GatewayApi';
export * from './MerchantsApi';
export * from './PaymentsApi';
export * from './SettlementsApi';
export * from './TestHelpersApi';
export * from './WebhooksApi';
export * from './X402Api';
