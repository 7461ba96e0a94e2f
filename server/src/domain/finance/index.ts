/** Money held for users: the ledgers (ledger.ts) and prepaid cards (cards.ts). */
import type { DomainArea } from '../area.js';
import { rechargeCard, sellCard } from './cards.js';

export const financeArea: DomainArea = {
  name: 'finance',
  register(engine) {
    engine.registerActionHandler('cardProducts', 'sell', sellCard);
    engine.registerActionHandler('prepaidCards', 'recharge', rechargeCard);
  },
};
