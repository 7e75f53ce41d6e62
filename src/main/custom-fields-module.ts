import type { ConnectRouter } from "@connectrpc/connect";
import type { MikroORM } from "@mikro-orm/postgresql";
import type { Config } from "../config.js";
import type { Logger } from "../logger.js";
import { CustomFieldsService } from "../../gen/customfields/v1/custom_fields_service_pb.js";
import { CustomersService } from "../../gen/customers/v1/customers_service_pb.js";

export interface CustomFieldsModule {
  register(router: ConnectRouter): void;
  pingCache(): Promise<void>;
  close(): Promise<void>;
}

/** Custom fields and the reference Customers module (filled in by the custom fields issue). */
export async function createCustomFieldsModule(_config: Config, _orm: MikroORM, _logger: Logger): Promise<CustomFieldsModule> {
  return {
    register(router) {
      router.service(CustomFieldsService, {});
      router.service(CustomersService, {});
    },
    pingCache: async () => undefined,
    close: async () => undefined,
  };
}
