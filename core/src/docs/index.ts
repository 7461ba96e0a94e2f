export * from './public-api';
export * from './snippet';
export * from './tokenize';
