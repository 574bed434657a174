import type {
  CreateParams,
  DataProvider,
  GetManyReferenceParams,
  Identifier,
  RaRecord,
  UpdateParams,
} from 'react-admin';
import type { ListQuery, Paginate } from '../types';
import type { CrudOps } from './crud';
import { fromListEnvelope, toListQuery, type ListParams } from './query';

/**
 * react-admin lets each caller name the record type it reads (`useGetOne<Cluster>('clusters', …)`); what arrives
 * is the contract's record of that resource, which is the type the console's screens name.
 */
const forCaller = <R extends RaRecord>(record: RaRecord): R => record as R;

const idOf = (id: Identifier) => String(id);

/** What every resource offers, seen from react-admin's verbs: `remove` only where the contract deletes. */
interface CrudResourceOps {
  list: (query: ListQuery, filter?: Record<string, unknown>) => Promise<ListBody>;
  one: (id: string) => Promise<RaRecord>;
  create: (values: CreateParams['data']) => Promise<RaRecord>;
  /** `edited` is the record as the form read it: its ETag goes out as If-Match. */
  update: (id: string, values: CreateParams['data'], edited?: unknown) => Promise<RaRecord>;
  remove?: (id: string) => Promise<unknown>;
}

/** A page of records as the contract sends them. */
type ListBody = { data?: RaRecord[] | null; paginate?: Partial<Paginate> | null };

/** Lists that react-admin's `<List>` reads but no verb writes (the audit log): each maps the list's parameters itself. */
export type ReadOnlyLists = Record<string, (params: ListParams) => Promise<ListBody>>;

/** react-admin's CRUD verbs over the contract's calls; records are returned as the contract sends them. */
export function createCrudVerbs(crud: CrudOps, readOnlyLists: ReadOnlyLists = {}) {
  const isCrudResource = (resource: string): resource is keyof CrudOps => Object.hasOwn(crud, resource);
  const ops = (resource: string): CrudResourceOps => {
    if (!isCrudResource(resource)) throw new Error(`Unknown resource: ${resource}`);
    return crud[resource];
  };
  /** A resource without a delete in the contract (accounts are deactivated instead) refuses it here. */
  const removeOf = (resource: string) => {
    const resourceOps = ops(resource);
    if (!resourceOps.remove) throw new Error(`${resource} cannot be deleted`);
    return resourceOps.remove;
  };

  async function getList<R extends RaRecord>(resource: string, params: ListParams) {
    const readOnly = Object.hasOwn(readOnlyLists, resource) ? readOnlyLists[resource] : undefined;
    const body = readOnly ? await readOnly(params) : await ops(resource).list(toListQuery(params), params.filter);
    const page = fromListEnvelope<RaRecord>(body);
    return { ...page, data: page.data.map((r) => forCaller<R>(r)) };
  }

  return {
    getList,
    getOne: async (resource, params) => ({ data: forCaller(await ops(resource).one(idOf(params.id))) }),
    getMany: async (resource, params) => ({
      data: (await Promise.all(params.ids.map((id) => ops(resource).one(idOf(id))))).map((r) => forCaller(r)),
    }),
    getManyReference: (resource, params: ListParams & Pick<GetManyReferenceParams, 'target' | 'id'>) =>
      getList(resource, { ...params, filter: { ...params.filter, [params.target]: params.id } }),
    create: async (resource, params) => ({ data: forCaller(await ops(resource).create(params.data)) }),
    update: async (resource, params: UpdateParams<RaRecord>) => ({
      data: forCaller(await ops(resource).update(idOf(params.id), params.data, params.previousData)),
    }),
    updateMany: async (resource, params) => {
      await Promise.all(params.ids.map((id) => ops(resource).update(idOf(id), params.data)));
      return { data: params.ids };
    },
    delete: async (resource, params) => {
      await removeOf(resource)(idOf(params.id));
      // A delete answers 204: react-admin gets back the record it asked to delete.
      return { data: params.previousData ?? forCaller({ id: params.id }) };
    },
    deleteMany: async (resource, params) => {
      const remove = removeOf(resource);
      await Promise.all(params.ids.map((id) => remove(idOf(id))));
      return { data: params.ids };
    },
  } satisfies DataProvider;
}
