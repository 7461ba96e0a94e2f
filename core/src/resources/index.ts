export * from './actions';
export * from './client';
export * from './define';
export * from './fields';
export * from './lifecycle';
export * from './list-query';
export * from './registry';
export * from './schema';
