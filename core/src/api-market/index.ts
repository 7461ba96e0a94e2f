export * from './keys';
export * from './metering';
export * from './quota';
export * from './rate-limit';
