/** SPEC §2: "{product} - {Route name}", just the product name on home. */
export function pageTitle(product: string, routeName: string | undefined): string {
  if (!routeName) return product;
  return `${product} - ${routeName.charAt(0).toUpperCase()}${routeName.slice(1)}`;
}
