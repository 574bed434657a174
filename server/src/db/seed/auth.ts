import { randomUUID } from 'node:crypto';
import { hashPassword } from '../../modules/auth/passwords.js';
import { insertBatched, type SeedContext } from './context.js';
import { STORY_IDS } from './story.js';

/** Demo accounts listed in the README; all share DEMO_PASSWORD. Cluster-scoped grants come with the clusters. */
const DEMO_USERS = [
  { username: 'viewer', firstname: 'Vera', lastname: 'Viewer' },
  { username: 'editor-a', firstname: 'Eddie', lastname: 'Editor' },
  { username: 'mapper', firstname: 'Mia', lastname: 'Mapper' },
  { username: 'operator', firstname: 'Oscar', lastname: 'Operator' },
] as const;

// Extra staff so member lists and the user search have something to page through.
const STAFF = [
  ['somchai', 'Somchai', 'Jaidee'],
  ['suda', 'Suda', 'Rakthai'],
  ['anan', 'Anan', 'Srisuk'],
  ['malee', 'Malee', 'Boonmee'],
  ['niran', 'Niran', 'Chaiyo'],
  ['pim', 'Pim', 'Wongsa'],
  ['john', 'John', 'Smith'],
  ['emma', 'Emma', 'Brown'],
  ['lucas', 'Lucas', 'Martin'],
  ['sofia', 'Sofia', 'Rossi'],
  ['kenji', 'Kenji', 'Tanaka'],
  ['aroon', 'Aroon', 'Thongdee'],
] as const;

export async function seedAuth(ctx: SeedContext): Promise<void> {
  const demo = ctx.config.seedDemo;
  const [adminHash, demoHash] = await Promise.all([
    hashPassword(ctx.config.admin.password),
    demo ? hashPassword(ctx.config.demoPassword) : '',
  ]);
  const adminUsername = ctx.config.admin.username;
  // The demo's records the contract's examples show keep the examples' ids, so the docs' samples find them.
  const storyId = (username: string) =>
    (demo &&
      { [adminUsername]: STORY_IDS.admin, 'editor-a': STORY_IDS.editorA, somchai: STORY_IDS.somchai }[username]) ||
    randomUUID();
  const rows = [
    {
      id: storyId(adminUsername),
      username: adminUsername,
      email: adminUsername.includes('@') ? adminUsername : `${adminUsername}@example.com`,
      firstname: 'Platform',
      lastname: 'Admin',
      password_hash: adminHash,
      is_super_admin: true,
      // A production admin's first password came from the deployment's environment: its holder replaces it at the
      // first sign-in. The demo admin keeps the documented one.
      must_change_password: !demo,
    },
    ...(demo
      ? [...DEMO_USERS, ...STAFF.map(([username, firstname, lastname]) => ({ username, firstname, lastname }))]
      : []
    ).map((u) => ({
      id: storyId(u.username),
      username: u.username,
      email: `${u.username}@example.com`,
      firstname: u.firstname,
      lastname: u.lastname,
      password_hash: demoHash,
      is_super_admin: false,
      must_change_password: false,
    })),
  ];
  // The admin name may collide with a demo name; the admin wins.
  const seen = new Set<string>();
  const unique = rows.filter((r) => !seen.has(r.username.toLowerCase()) && seen.add(r.username.toLowerCase()));
  await insertBatched(ctx.trx, 'users', unique);
  for (const r of unique) ctx.users[r.username] = r.id;
  ctx.users.admin = unique[0]!.id;

  const platformGrants: Array<[string, string]> = [
    ['viewer', 'cluster.read'],
    ['mapper', 'print_template_mapping.manage'],
  ];
  await insertBatched(
    ctx.trx,
    'permission_grants',
    platformGrants
      .filter(([u]) => ctx.users[u] && u !== adminUsername)
      .map(([u, key]) => ({ user_id: ctx.users[u], permission_key: key, cluster_id: null })),
  );
}
