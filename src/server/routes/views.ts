/**
 * SPEC §7.6: a member's views. Custom views (focus inboxes) and the member's settings of the
 * built-in sub-views are stored per member (workspace + user); one member never sees or
 * changes another's (404). Every change is written with a `view_update` event for the member
 * in the same transaction, then published, so the member's other tabs follow it.
 */
import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { z } from 'zod';
import { isKnownOperator } from '../../model/filter';
import { BUILTIN_VIEWS, PAGES, byPosition, type View, type ViewUpdateData } from '../../model/views';
import type { AppContext, AppEnv } from '../context';
import { HttpProblem, parseBody, parseQuery } from '../http';
import { applyBuiltinSettings, type MemberEvent, type MemberViews, type Session, type StoredEvent } from '../store/types';

export const VIEW_LABEL_MAX = 80;
export const VIEW_FILTERS_MAX = 50;
export const VIEW_IN_VALUES_MAX = 10_000;
export const VIEW_POSITION_MAX = 10_000;
/** How many positions one reorder may set. */
export const VIEW_REORDER_MAX = 1_000;
const FIELD_MAX = 200;
const ID_MAX = 200;

const PAGE_IDS = PAGES.map((p) => p.id) as [string, ...string[]];
const pageSchema = z.enum(PAGE_IDS, { error: `must be one of ${PAGE_IDS.join(', ')}` });
const positionSchema = z.number().int().min(0).max(VIEW_POSITION_MAX);

/** The longest string a filter compares against. */
const FILTER_VALUE_MAX = 1_000;
const filterScalar = z.union([z.string().max(FILTER_VALUE_MAX), z.number(), z.boolean(), z.null()]);

const ruleSchema = z
  .object({
    field: z
      .string()
      .max(FIELD_MAX)
      .regex(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/, 'must be a field name or a dotted path'),
    operator: z.string().refine(isKnownOperator, 'unknown operator'),
    // A JSON scalar, or (for `in`) a list of scalars: nothing nested, so no depth to exhaust.
    value: z.union([filterScalar, z.array(filterScalar)], { error: 'must be a string, a number, true, false, null, or a list of those' }).optional(),
  })
  .superRefine((rule, issue) => {
    // JSON has no undefined: a value that is undefined was not sent.
    if (rule.operator === 'exists' || rule.operator === 'not_exists') {
      if (rule.value !== undefined) issue.addIssue({ code: 'custom', path: ['value'], message: `${rule.operator} takes no value` });
    } else if (rule.operator === 'in') {
      if (!Array.isArray(rule.value)) issue.addIssue({ code: 'custom', path: ['value'], message: 'in needs a list of values' });
      else if (rule.value.length > VIEW_IN_VALUES_MAX) {
        issue.addIssue({ code: 'custom', path: ['value'], message: `in takes at most ${VIEW_IN_VALUES_MAX} values` });
      }
    } else if (rule.value === undefined && isKnownOperator(rule.operator)) {
      issue.addIssue({ code: 'custom', path: ['value'], message: `${rule.operator} needs a value` });
    }
  });

const viewFields = {
  label: z.string().trim().min(1, 'must not be empty').max(VIEW_LABEL_MAX),
  filters: z.array(ruleSchema).max(VIEW_FILTERS_MAX),
  combinator: z.enum(['and', 'or']),
  parentViewId: pageSchema,
  /** null: no position (ordered as 999). */
  position: positionSchema.nullable(),
  isVisible: z.boolean(),
};

const createSchema = z.object({
  label: viewFields.label,
  filters: viewFields.filters,
  combinator: viewFields.combinator.optional(),
  parentViewId: viewFields.parentViewId,
  position: viewFields.position.optional(),
  isVisible: viewFields.isVisible.optional(),
});

const updateSchema = z
  .object({
    label: viewFields.label.optional(),
    filters: viewFields.filters.optional(),
    combinator: viewFields.combinator.optional(),
    parentViewId: viewFields.parentViewId.optional(),
    position: viewFields.position.optional(),
    isVisible: viewFields.isVisible.optional(),
  })
  .refine(
    (patch) => Object.values(patch).some((v) => v !== undefined),
    'nothing to change: give at least one of label, filters, combinator, parentViewId, position, isVisible',
  );

const visibilitySchema = z.object({ isVisible: z.boolean() });

const idSchema = z.string().min(1).max(ID_MAX);
const reorderSchema = z.object({
  positions: z
    .union([
      z.array(z.object({ id: idSchema, position: positionSchema })),
      z.record(idSchema, positionSchema).transform((map) => Object.entries(map).map(([id, position]) => ({ id, position }))),
    ])
    .refine((list) => list.length >= 1, 'must name at least one view')
    .refine((list) => list.length <= VIEW_REORDER_MAX, `must name at most ${VIEW_REORDER_MAX} views`)
    .refine((list) => new Set(list.map((p) => p.id)).size === list.length, 'must name each view once'),
});

const pageQuery = z.object({ parentViewId: pageSchema.optional() });

const newViewId = () => `cv_${randomBytes(16).toString('base64url')}`;

const event = (userId: string, data: ViewUpdateData): MemberEvent => ({ userId, type: 'view_update', data });
const allOf = (views: MemberViews): View[] => [...views.builtin, ...views.custom];

export function viewRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  const publish = (s: Session, events: ReadonlyArray<StoredEvent & { userId: string }>) => ctx.hub.publish(s.workspaceId, events);
  const upsert = (s: Session) => (view: View) => [event(s.userId, { action: 'upsert', view })];
  const unknownView = () => new HttpProblem(404, 'Unknown view');

  /* ---------- custom views ---------- */

  app.get('/api/custom-views', async (c) => {
    const s = c.get('session');
    const { parentViewId } = parseQuery(c, pageQuery);
    const views = await ctx.store.listCustomViews(s.workspaceId, s.userId, parentViewId);
    return c.json({ success: true, views });
  });

  app.post('/api/custom-views/reorder', async (c) => {
    const s = c.get('session');
    const { positions } = await parseBody(c, reorderSchema);
    const written = await ctx.store.reorderCustomViews(s.workspaceId, s.userId, positions, ctx.clock.now(), (views) => [
      event(s.userId, { action: 'reset', views: allOf(views) }),
    ]);
    if (!written) throw unknownView();
    publish(s, written.events);
    return c.json({ success: true, views: written.result.custom });
  });

  app.get('/api/custom-views/:id', async (c) => {
    const s = c.get('session');
    const view = await ctx.store.getCustomView(s.workspaceId, s.userId, c.req.param('id'));
    if (!view) throw unknownView();
    return c.json({ success: true, view });
  });

  app.post('/api/custom-views', async (c) => {
    const s = c.get('session');
    const body = await parseBody(c, createSchema);
    const written = await ctx.store.createCustomView(
      s.workspaceId,
      s.userId,
      {
        id: newViewId(),
        label: body.label,
        filters: body.filters,
        ...(body.combinator ? { combinator: body.combinator } : {}),
        parentViewId: body.parentViewId,
        position: body.position,
        isVisible: body.isVisible ?? true,
      },
      ctx.clock.now(),
      upsert(s),
    );
    publish(s, written.events);
    return c.json({ success: true, view: written.result }, 201);
  });

  app.put('/api/custom-views/:id', async (c) => {
    const s = c.get('session');
    const body = await parseBody(c, updateSchema);
    const written = await ctx.store.updateCustomView(s.workspaceId, s.userId, c.req.param('id'), body, ctx.clock.now(), upsert(s));
    if (!written) throw unknownView();
    publish(s, written.events);
    return c.json({ success: true, view: written.result });
  });

  app.delete('/api/custom-views/:id', async (c) => {
    const s = c.get('session');
    const written = await ctx.store.deleteCustomView(s.workspaceId, s.userId, c.req.param('id'), ctx.clock.now(), (id) => [
      event(s.userId, { action: 'delete', id }),
    ]);
    if (!written) throw unknownView();
    publish(s, written.events);
    return c.json({ success: true, id: written.result });
  });

  app.patch('/api/custom-views/:id/toggle-visibility', async (c) => {
    const s = c.get('session');
    const written = await ctx.store.updateCustomView(s.workspaceId, s.userId, c.req.param('id'), { isVisible: 'toggle' }, ctx.clock.now(), upsert(s));
    if (!written) throw unknownView();
    publish(s, written.events);
    return c.json({ success: true, view: written.result });
  });

  app.patch('/api/custom-views/:id/visibility', async (c) => {
    const s = c.get('session');
    const { isVisible } = await parseBody(c, visibilitySchema);
    const written = await ctx.store.updateCustomView(s.workspaceId, s.userId, c.req.param('id'), { isVisible }, ctx.clock.now(), upsert(s));
    if (!written) throw unknownView();
    publish(s, written.events);
    return c.json({ success: true, view: written.result });
  });

  /* ---------- built-in views ---------- */

  app.get('/api/builtin-views', async (c) => {
    const s = c.get('session');
    const views = applyBuiltinSettings(await ctx.store.listBuiltinViewSettings(s.workspaceId, s.userId));
    return c.json({ success: true, views });
  });

  app.post('/api/builtin-views/initialize', async (c) => {
    const s = c.get('session');
    // Idempotent: a member whose settings already exist gets no event.
    const written = await ctx.store.initializeBuiltinViews(s.workspaceId, s.userId, ctx.clock.now(), (result) =>
      result.created > 0 ? [event(s.userId, { action: 'reset', views: allOf(result) })] : [],
    );
    publish(s, written.events);
    return c.json({ success: true, views: written.result.builtin });
  });

  const builtinId = (id: string) => {
    if (!BUILTIN_VIEWS.some((v) => v.id === id)) throw new HttpProblem(404, 'Unknown built-in view');
    return id;
  };

  app.patch('/api/builtin-views/:id/toggle-visibility', async (c) => {
    const s = c.get('session');
    const id = builtinId(c.req.param('id'));
    const written = await ctx.store.setBuiltinVisibility(s.workspaceId, s.userId, id, 'toggle', ctx.clock.now(), upsert(s));
    if (!written) throw new HttpProblem(404, 'Unknown built-in view');
    publish(s, written.events);
    return c.json({ success: true, view: written.result });
  });

  app.patch('/api/builtin-views/:id/visibility', async (c) => {
    const s = c.get('session');
    const id = builtinId(c.req.param('id'));
    const { isVisible } = await parseBody(c, visibilitySchema);
    const written = await ctx.store.setBuiltinVisibility(s.workspaceId, s.userId, id, isVisible, ctx.clock.now(), upsert(s));
    if (!written) throw new HttpProblem(404, 'Unknown built-in view');
    publish(s, written.events);
    return c.json({ success: true, view: written.result });
  });

  /* ---------- both ---------- */

  app.get('/api/all-views', async (c) => {
    const s = c.get('session');
    const { parentViewId = 'conversations' } = parseQuery(c, pageQuery);
    const [settings, custom] = await Promise.all([
      ctx.store.listBuiltinViewSettings(s.workspaceId, s.userId),
      ctx.store.listCustomViews(s.workspaceId, s.userId, parentViewId),
    ]);
    const builtin = applyBuiltinSettings(settings).filter((v) => v.parentViewId === parentViewId);
    const views: View[] = [...builtin, ...custom].sort(byPosition);
    return c.json({ success: true, views });
  });

  return app;
}
