export { priceWithBestActivity } from './best';
export { type FulfilmentKind, orderFees } from './fees';
export { POINTS_PER_YUAN } from './points';
export { priceOrder } from './price-order';
export { payAtRate } from './rates';
export { spreadInto } from './spread';
export * from './types';
export { MAX_ORDER_FEN, PricingInputError } from './validate';
