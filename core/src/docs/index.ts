export * from './snippet';
export * from './tokenize';
