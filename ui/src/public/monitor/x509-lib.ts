/**
 * @peculiar/x509 with the Reflect polyfill it requires (its README: tsyringe, which it uses, throws
 * on import without one). Import the library through this module only, so the polyfill always
 * runs first; both stay in the lazy chunks of the tabs that decode and generate.
 */
import 'reflect-metadata';

export * from '@peculiar/x509';
