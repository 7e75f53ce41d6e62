import type { ConnectRouter } from "@connectrpc/connect";
import { ProductsService } from "@files-and-fields/client/gen/products/v1/products_service_pb.js";
import { createProduct } from "../../app/products/create-product.js";
import type { ProductsDeps } from "../../app/products/deps.js";
import { getProduct } from "../../app/products/get-product.js";
import { listProducts } from "../../app/products/list-products.js";
import type { Product, ProductFields } from "../../app/products/port.js";
import { updateProduct } from "../../app/products/update-product.js";
import { callScopeOf } from "../call-scope.js";
import { actorOf } from "./actor.js";
import { entityMessageBase, entityUpdateInput } from "./custom-field-entity-messages.js";

/** Translates between the contract and the product use cases; int64 cents are numbers inside (bounded by the contract). */
export function registerProductsService(router: ConnectRouter, deps: ProductsDeps): void {
  router.service(ProductsService, {
    async createProduct(req, ctx) {
      const fields = { sku: req.sku, name: req.name, priceCents: Number(req.priceCents) };
      return { product: toProductMessage(await createProduct(deps, actorOf(ctx), fields, req.customFields, callScopeOf(ctx))) };
    },
    async getProduct(req, ctx) {
      return { product: toProductMessage(await getProduct(deps, actorOf(ctx), req.id)) };
    },
    async updateProduct(req, ctx) {
      const input = entityUpdateInput<Omit<ProductFields, "sku">>(req, [
        ["name", "name", req.name],
        ["price_cents", "priceCents", req.priceCents === undefined ? undefined : Number(req.priceCents)],
      ]);
      return { product: toProductMessage(await updateProduct(deps, actorOf(ctx), input, callScopeOf(ctx))) };
    },
    async listProducts(req, ctx) {
      const { items, nextPageToken } = await listProducts(deps, actorOf(ctx), {
        exact: { sku: req.sku || undefined },
        filters: req.filters,
        pageSize: req.pageSize,
        pageToken: req.pageToken,
      });
      return { products: items.map(toProductMessage), nextPageToken };
    },
  });
}

function toProductMessage(product: Product) {
  return { ...entityMessageBase(product), sku: product.sku, name: product.name, priceCents: BigInt(product.priceCents) };
}
