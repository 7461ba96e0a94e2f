export * from './keys';
export * from './metering';
export * from './orders';
export * from './quota';
export * from './rate-limit';
