export * from './decide';
export * from './draft';
export * from './moves';
export * from './refund';
