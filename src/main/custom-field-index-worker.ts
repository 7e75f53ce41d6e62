import type { Config } from "../config/config.js";
import type { Logger } from "../logger.js";
import { CustomFieldIndexBuilder } from "../adapters/postgres/custom-field-index-builder.js";
import { openDatabase } from "../adapters/postgres/orm.js";

/**
 * The worker's custom field index builder, on a pool of its own (2 connections: the pass's and one
 * to cancel it at stop), so an index build never holds a connection requests need.
 */
export async function startCustomFieldIndexBuilder(config: Config, logger: Logger): Promise<{ stop(): Promise<void> }> {
  const orm = await openDatabase(config.databaseUrl, 2);
  const builder = new CustomFieldIndexBuilder(
    orm,
    { intervalSeconds: config.customFieldIndexes.buildIntervalSeconds },
    { info: (message, meta) => logger.info(meta, message), warn: (message, error) => logger.warn({ err: error }, message) },
  );
  builder.start();
  return {
    async stop() {
      await builder.stop();
      await orm.close();
    },
  };
}
