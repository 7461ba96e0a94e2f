export * from './periods';
export * from './query';
export * from './report';
export * from './table';
