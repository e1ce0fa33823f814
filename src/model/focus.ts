/**
 * The focus inbox form (SPEC §2.7, §3 'the form's filter object') and its rules. The two
 * convert both ways without loss: formToRules(form) then rulesToForm gives the form back.
 * Rules the form cannot express (a view made through the API) answer null from
 * rulesToForm, so the modal can keep them untouched instead of rewriting them.
 */
import type { ConversationType, FilterRule } from './types';
import { CONVERSATION_TYPES } from './types';

export type ReadStatus = 'all' | 'unread' | 'read';

export interface FocusFilter {
  messageTypes: ConversationType[];
  readStatus: ReadStatus;
  /** Channel conversation ids. */
  channels: string[];
  /** User ids: a conversation matches when one of them is a member. */
  users: string[];
}

export const EMPTY_FOCUS_FILTER: FocusFilter = { messageTypes: [], readStatus: 'all', channels: [], users: [] };

/** Rules for a form; an empty part adds no rule (no message type means every type). */
export function formToRules(form: FocusFilter): FilterRule[] {
  const rules: FilterRule[] = [];
  if (form.messageTypes.length) rules.push({ field: 'type', operator: 'in', value: CONVERSATION_TYPES.filter((t) => form.messageTypes.includes(t)) });
  if (form.readStatus === 'unread') rules.push({ field: 'unread_count', operator: 'gt', value: 0 });
  if (form.readStatus === 'read') rules.push({ field: 'unread_count', operator: 'eq', value: 0 });
  if (form.channels.length) rules.push({ field: 'id', operator: 'in', value: [...form.channels] });
  if (form.users.length) rules.push({ field: 'member_ids', operator: 'in', value: [...form.users] });
  return rules;
}

const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');

/** The form of a rule list, or null when the rules say something the form cannot. */
export function rulesToForm(rules: readonly FilterRule[], combinator: 'and' | 'or' = 'and'): FocusFilter | null {
  if (combinator === 'or' && rules.length > 1) return null;
  const form: FocusFilter = { messageTypes: [], readStatus: 'all', channels: [], users: [] };
  const seen = new Set<string>();
  for (const rule of rules) {
    const key = `${rule.field}:${rule.operator}`;
    if (seen.has(rule.field)) return null;
    seen.add(rule.field);
    if (
      key === 'type:in' &&
      isStringList(rule.value) &&
      rule.value.length > 0 &&
      rule.value.every((t) => (CONVERSATION_TYPES as readonly string[]).includes(t))
    ) {
      form.messageTypes = CONVERSATION_TYPES.filter((t) => (rule.value as string[]).includes(t));
    } else if (key === 'type:eq' && typeof rule.value === 'string' && (CONVERSATION_TYPES as readonly string[]).includes(rule.value)) {
      form.messageTypes = [rule.value as ConversationType];
    } else if (key === 'unread_count:gt' && rule.value === 0) {
      form.readStatus = 'unread';
    } else if (key === 'unread_count:eq' && rule.value === 0) {
      form.readStatus = 'read';
    } else if (key === 'id:in' && isStringList(rule.value) && rule.value.length > 0) {
      form.channels = [...rule.value];
    } else if (key === 'member_ids:in' && isStringList(rule.value) && rule.value.length > 0) {
      form.users = [...rule.value];
    } else {
      return null;
    }
  }
  return form;
}
