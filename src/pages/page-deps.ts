/**
 * What the pages are given (buildApp passes its own dependencies, which include these): the
 * brand for the portal, the gateway and the configuration for the dashboard.
 */
import type { BrandService } from '../brand/brand-service.js';
import type { Config } from '../config.js';
import type { Gateway } from '../gateway/gateway.js';

export interface PageDeps {
  config: Config;
  brand: BrandService;
  /** The integration gateway; absent, the dashboard says so. */
  gateway?: { gateway: Gateway; secrets: { apiKeyHash: Buffer } };
}
