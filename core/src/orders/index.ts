export * from './auto-accept';
export * from './decide';
export * from './dispatch';
export * from './draft';
export * from './moves';
export * from './pay-methods';
export * from './payment';
export * from './refund';
