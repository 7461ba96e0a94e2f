export * from './access-log';
export * from './cname';
export * from './hourly';
export * from './units';
