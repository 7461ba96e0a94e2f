export * from './date';
export * from './field-text';
export * from './money';
export * from './order-lines';
