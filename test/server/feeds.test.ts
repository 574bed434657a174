import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { AuthContext } from '../../server/src/core/permissions.js';
import { feedService } from '../../server/src/modules/feeds/service.js';
import { engines, startTestServer, type TestServer } from './support/index.js';

const COUNTS = {
  pr: '/api/proxy/api/my-pending/purchase-requests/count',
  po: '/api/proxy/api/my-pending/purchase-orders/count',
  sr: '/api/proxy/api/my-pending/store-requisitions/count',
} as const;
const PENDING = '/api/proxy/api/approval/pending';
const SUMMARY = '/api/proxy/api/approval/summary';

type DocType = 'pr' | 'po' | 'sr';
interface Item {
  id: string;
  doc_type: DocType;
  doc_no: string;
  doc_date: string;
  total_amount: number;
  currency_code: string;
  workflow_current_stage: string;
  business_unit_id: string;
  business_unit_name: string;
  requestor_name: string | null;
}
interface Feed {
  groups: Array<{
    doc_type: DocType;
    count: number;
    totals: Array<{ currency_code: string; total_amount: number }>;
    items: Item[];
  }>;
}

const tag = () => randomUUID().slice(0, 8);

async function newUser(t: TestServer, names: { firstname?: string; lastname?: string } = {}) {
  const username = `u-${tag()}`;
  const [row] = await t
    .knex('users')
    .insert({ username, email: `${username}@example.com`, password_hash: 'not-used', ...names })
    .returning<Array<{ id: string }>>('id');
  const id = (row as { id: string }).id;
  return { id, username, token: await t.tokenFor(id) };
}

interface DocOptions {
  status?: string;
  amount?: number;
  date?: string;
  approvers?: string[];
  requestorId?: string | null;
  stage?: string;
  currency?: string;
}

describe.each(engines())('pending counts and approval feeds on %s', (engine) => {
  let t: TestServer;
  let bu: { id: string; name: string };
  let requestor: { id: string };

  beforeAll(async () => {
    t = await startTestServer(engine);
    const [cluster] = await t
      .knex('clusters')
      .insert({ code: `C-${tag()}`, name: `Cluster ${tag()}` })
      .returning<Array<{ id: string }>>('id');
    const name = `Andaman Beach ${tag()}`;
    const [row] = await t
      .knex('business_units')
      .insert({ cluster_id: (cluster as { id: string }).id, code: `B-${tag()}`, name })
      .returning<Array<{ id: string }>>('id');
    bu = { id: (row as { id: string }).id, name };
    requestor = await newUser(t, { firstname: 'Somchai', lastname: 'Jaidee' });
  });
  afterAll(() => t?.close());

  async function newDocument(type: DocType, o: DocOptions = {}) {
    const [row] = await t
      .knex('documents')
      .insert({
        doc_type: type,
        doc_no: `${type.toUpperCase()}-${tag()}`,
        doc_date: o.date ?? '2026-11-01',
        total_amount: o.amount ?? 100,
        currency_code: o.currency ?? 'THB',
        business_unit_id: bu.id,
        requestor_id: o.requestorId === undefined ? requestor.id : o.requestorId,
        workflow_current_stage: o.stage ?? 'Department Head Approval',
        status: o.status ?? 'pending',
      })
      .returning<Array<{ id: string; doc_no: string }>>(['id', 'doc_no']);
    const doc = row as { id: string; doc_no: string };
    if (o.approvers?.length)
      await t
        .knex('document_pending_approvers')
        .insert(o.approvers.map((user_id) => ({ document_id: doc.id, user_id })));
    return doc;
  }

  const json = async <T>(path: string, token: string): Promise<T> => {
    const res = await t.fetch(path, { token });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as T;
  };

  describe('my-pending counts', () => {
    it("when documents of each type wait on the caller, then each count endpoint returns that type's pending ones", async () => {
      const me = await newUser(t);
      const other = await newUser(t);
      await newDocument('pr', { approvers: [me.id] });
      await newDocument('pr', { approvers: [me.id, other.id] });
      await newDocument('pr', { status: 'approved', approvers: [me.id] });
      await newDocument('pr', { status: 'rejected', approvers: [me.id] });
      await newDocument('pr', { status: 'draft', approvers: [me.id] });
      await newDocument('pr', { approvers: [other.id] });
      await newDocument('po', { approvers: [me.id] });
      expect(await json(COUNTS.pr, me.token)).toEqual({ pending: 2 });
      expect(await json(COUNTS.po, me.token)).toEqual({ pending: 1 });
      expect(await json(COUNTS.sr, me.token)).toEqual({ pending: 0 });
      expect(await json(COUNTS.pr, other.token)).toEqual({ pending: 2 });
    });

    it('when nobody is signed in, then the counts are 401', async () => {
      for (const path of Object.values(COUNTS)) expect((await t.fetch(path)).status).toBe(401);
    });
  });

  describe('approval pending', () => {
    it('when the caller has nothing to approve, then all three groups come back empty, in the order pr, po, sr', async () => {
      const me = await newUser(t);
      expect(await json<Feed>(PENDING, me.token)).toEqual({
        groups: [
          { doc_type: 'pr', count: 0, totals: [], items: [] },
          { doc_type: 'po', count: 0, totals: [], items: [] },
          { doc_type: 'sr', count: 0, totals: [], items: [] },
        ],
      });
    });

    it('when documents wait on the caller, then they are grouped by type, newest first, with count, totals per currency and item fields', async () => {
      const me = await newUser(t);
      const other = await newUser(t);
      const older = await newDocument('po', {
        approvers: [me.id],
        date: '2026-10-01',
        amount: 1500.5,
        stage: 'Purchasing Manager Approval',
      });
      const newer = await newDocument('po', {
        approvers: [me.id],
        date: '2026-11-15',
        amount: 250.25,
        currency: 'USD',
        requestorId: null,
      });
      const sr = await newDocument('sr', { approvers: [me.id, other.id], date: '2026-11-02', amount: 80 });
      await newDocument('po', { status: 'approved', approvers: [me.id] });
      await newDocument('pr', { approvers: [other.id] });
      const feed = await json<Feed>(PENDING, me.token);
      expect(feed.groups.map((g) => g.doc_type)).toEqual(['pr', 'po', 'sr']);
      const [pr, po, srGroup] = feed.groups;
      expect(pr).toEqual({ doc_type: 'pr', count: 0, totals: [], items: [] });
      expect(po!.count).toBe(2);
      // One THB and one USD document: two totals, never one sum of both.
      expect(po!.totals).toEqual([
        { currency_code: 'THB', total_amount: 1500.5 },
        { currency_code: 'USD', total_amount: 250.25 },
      ]);
      expect(po!.items.map((i) => i.id)).toEqual([newer.id, older.id]);
      expect(po!.items[1]).toEqual({
        id: older.id,
        doc_type: 'po',
        doc_no: older.doc_no,
        doc_date: '2026-10-01',
        total_amount: 1500.5,
        currency_code: 'THB',
        workflow_current_stage: 'Purchasing Manager Approval',
        business_unit_id: bu.id,
        business_unit_name: bu.name,
        requestor_name: 'Somchai Jaidee',
      });
      expect(po!.items[0]).toMatchObject({ currency_code: 'USD', requestor_name: null, total_amount: 250.25 });
      expect(srGroup).toMatchObject({
        count: 1,
        totals: [{ currency_code: 'THB', total_amount: 80 }],
        items: [expect.objectContaining({ id: sr.id, doc_date: '2026-11-02' })],
      });
    });

    it('when more than five documents of a type wait, then the pending feed lists them all', async () => {
      const me = await newUser(t);
      for (let i = 1; i <= 7; i++) await newDocument('sr', { approvers: [me.id], date: `2026-11-0${i}` });
      const feed = await json<Feed>(PENDING, me.token);
      expect(feed.groups[2]!.items).toHaveLength(7);
      expect(feed.groups[2]!.count).toBe(7);
    });

    it('when nobody is signed in, then the feeds are 401', async () => {
      expect((await t.fetch(PENDING)).status).toBe(401);
      expect((await t.fetch(SUMMARY)).status).toBe(401);
    });
  });

  describe('approval summary', () => {
    it('when seven purchase requests wait, then the summary counts and totals all seven and lists the five newest', async () => {
      const me = await newUser(t);
      const docs = [];
      for (let i = 1; i <= 7; i++)
        docs.push(await newDocument('pr', { approvers: [me.id], date: `2026-11-1${i}`, amount: i * 100 }));
      await newDocument('po', { approvers: [me.id], amount: 999.99 });
      const summary = await json<Feed>(SUMMARY, me.token);
      expect(summary.groups.map((g) => g.doc_type)).toEqual(['pr', 'po', 'sr']);
      const pr = summary.groups[0]!;
      expect(pr.count).toBe(7);
      expect(pr.totals).toEqual([{ currency_code: 'THB', total_amount: 2800 }]);
      expect(pr.items.map((i) => i.id)).toEqual(
        docs
          .slice(2)
          .reverse()
          .map((d) => d.id),
      );
      expect(summary.groups[1]).toMatchObject({ count: 1, totals: [{ currency_code: 'THB', total_amount: 999.99 }] });
      expect(summary.groups[2]).toEqual({ doc_type: 'sr', count: 0, totals: [], items: [] });
    });

    it('when documents share a date, then the later-created one comes first', async () => {
      const me = await newUser(t);
      const first = await newDocument('po', { approvers: [me.id], date: '2026-11-20' });
      await t
        .knex('documents')
        .where({ id: first.id })
        .update({ created_at: new Date(Date.now() - 60_000) });
      const second = await newDocument('po', { approvers: [me.id], date: '2026-11-20' });
      const summary = await json<Feed>(SUMMARY, me.token);
      expect(summary.groups[1]!.items.map((i) => i.id)).toEqual([second.id, first.id]);
    });
  });

  describe('queries', () => {
    it('when a count, the pending feed or the summary is computed, then each takes exactly one SQL statement', async () => {
      const me = await newUser(t);
      for (let i = 0; i < 3; i++) await newDocument('pr', { approvers: [me.id] });
      const feeds = feedService({ knex: t.knex });
      const caller: AuthContext = {
        userId: me.id,
        permissions: {
          platform: [],
          clusters: {},
          is_super_admin: false,
          must_change_password: false,
          must_enrol_second_factor: false,
        },
      };
      const statementsOf = async (run: () => Promise<unknown>) => {
        let n = 0;
        const count = () => n++;
        t.knex.on('query', count);
        try {
          await run();
        } finally {
          t.knex.removeListener('query', count);
        }
        return n;
      };
      expect(await statementsOf(() => feeds.pendingCount(caller, 'pr'))).toBe(1);
      expect(await statementsOf(() => feeds.pending(caller))).toBe(1);
      expect(await statementsOf(() => feeds.summary(caller))).toBe(1);
    });
  });

  describe('demo data', () => {
    it('when the demo operator and admin sign in, then both have documents waiting in every feed', async () => {
      for (const username of ['operator', 'admin']) {
        const token = await t.login(username);
        const counts = await Promise.all(Object.values(COUNTS).map((p) => json<{ pending: number }>(p, token)));
        expect(
          counts.reduce((sum, c) => sum + c.pending, 0),
          username,
        ).toBeGreaterThan(0);
        const summary = await json<Feed>(SUMMARY, token);
        expect(summary.groups.map((g) => g.count)).toEqual(counts.map((c) => c.pending));
        for (const g of summary.groups) expect(g.items.length).toBe(Math.min(5, g.count));
      }
    });
  });
});
