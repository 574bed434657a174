/** Resolves to a required `missing` property naming the members a list leaves out, so the compiler names them. */
type Missing<All, Listed> = [Exclude<All, Listed>] extends [never] ? unknown : { missing: Exclude<All, Listed> };

/**
 * A list of every member of a union, in the order given: a member the list leaves out (say, a new enum value
 * in the contract) or one the union does not have fails to compile.
 */
export const everyMember =
  <T>() =>
  <const L extends readonly T[]>(list: L & Missing<T, L[number]>): L =>
    list;

/** A name → member table covering every member of a union, checked the same way as `everyMember`. */
export const everyValue =
  <T>() =>
  <const M extends Readonly<Record<string, T>>>(table: M & Missing<T, M[keyof M]>): M =>
    table;
