import type { Config } from '../config/config.js';

export const PRODUCT_NAME = 'CallKeeper';

export function brand(config: Config) {
  return {
    productName: PRODUCT_NAME,
    publicUrl: config.publicUrl,
    supportName: config.support.name,
    supportEmail: config.support.email,
  };
}
