/** Community rules: the sensitive-word filter, the moderation rule, the chat-bot reply. */
export * from './chat-bot';
export * from './moderation';
export * from './normalise';
export * from './sensitive-words';
