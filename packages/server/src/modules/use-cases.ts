/** The intersection of a union's members: `A | B` becomes `A & B`. */
type Intersection<U> = (U extends unknown ? (part: U) => void : never) extends (part: infer I) => void
  ? I
  : never;

/**
 * A module's service composed of its use cases: each part is a plain object of plain functions built from the
 * same context, and the service holds all their functions (a later part's function wins a shared name).
 * @example composeUseCases(ctx, botDirectory, botCreation) // { ...botDirectory(ctx), ...botCreation(ctx) }
 */
export function composeUseCases<Context, Parts extends ((ctx: Context) => object)[]>(
  ctx: Context,
  ...parts: Parts
): Intersection<ReturnType<Parts[number]>> {
  return Object.assign({}, ...parts.map((part) => part(ctx)));
}
