export * from './coupon-eligibility';
export * from './coupon-issue';
export * from './coupon-rules';
export * from './coupon-validity';
export * from './exchange-code';
export * from './types';
