/** One term of a list's sort, resolved against its whitelist (shared by list queries and their cursors). */
export interface SortTerm {
  /** The column expression from the whitelist (never the raw client text). */
  column: string;
  field: string;
  direction: 'asc' | 'desc';
  /** The column never holds null: a keyset bound on it can use its index as a range (see `keysetWhere`). */
  notNull?: boolean;
}
