/**
 * The names a page needs to show a set of messages' mentions beyond people
 * (Conversation.mentions): channels (`<#C…>`, `<#C…|>`), user groups (`<!subteam^S…>`) and custom
 * emoji (`:name:` in text and in reactions). A channel is named from the member's own
 * conversations, else from what the workspace source looked up (conversations.info); user groups
 * and emoji from the source's lists. An emoji alias is followed once; only http(s) image
 * addresses are answered.
 */
import { emojiChar } from '../model/emoji';
import { readableText, unnamedChannelMentions, usergroupMentions } from '../model/slack';
import type { MentionData, Message } from '../model/types';
import type { Store } from './store/types';

const EMOJI = /:([a-z0-9_+'-]{1,100}):/g;
const SKIN_TONE = /::skin-tone-\d$/;
const IMAGE_URL = /^https?:\/\/[^\s]+$/i;
/** A page never needs more than this many names of one kind for one answer. */
const MAX_NAMES = 500;

export async function mentionsOf(store: Store, workspaceId: string, userId: string, messages: readonly Message[]): Promise<MentionData> {
  const channels = new Set<string>();
  const groups = new Set<string>();
  const emoji = new Set<string>();
  for (const m of messages) {
    const text = readableText(m);
    // A mention that carries its name shows it; only the unnamed ones, and only custom emoji, are looked up.
    for (const id of unnamedChannelMentions(text)) if (channels.size < MAX_NAMES) channels.add(id);
    for (const id of usergroupMentions(text)) if (groups.size < MAX_NAMES) groups.add(id);
    for (const match of text.matchAll(EMOJI)) if (emoji.size < MAX_NAMES && emojiChar(match[1]!) === null) emoji.add(match[1]!);
    for (const r of Array.isArray(m.reactions) ? m.reactions : []) {
      const name = typeof r?.name === 'string' ? r.name.replace(SKIN_TONE, '') : '';
      if (name && emoji.size < MAX_NAMES && emojiChar(name) === null) emoji.add(name);
    }
  }
  const mentions: MentionData = {};
  if (channels.size) {
    const names: Record<string, string> = {};
    const unknown: string[] = [];
    for (const id of channels) {
      // Only a conversation the member is in may be named from Sift's own copy.
      const own = await store.getConversation(workspaceId, userId, id);
      if (own && own.type === 'channel') names[id] = own.name;
      else unknown.push(id);
    }
    Object.assign(names, await store.sourceNames(workspaceId, 'channel', unknown));
    if (Object.keys(names).length) mentions.channels = names;
  }
  if (groups.size) {
    const names = await store.sourceNames(workspaceId, 'usergroup', [...groups]);
    if (Object.keys(names).length) mentions.usergroups = names;
  }
  if (emoji.size) {
    const found = await store.sourceNames(workspaceId, 'emoji', [...emoji]);
    const aliases = Object.values(found)
      .filter((v) => v.startsWith('alias:'))
      .map((v) => v.slice('alias:'.length));
    const targets = aliases.length ? await store.sourceNames(workspaceId, 'emoji', aliases) : {};
    const urls: Record<string, string> = {};
    for (const [name, value] of Object.entries(found)) {
      const url = value.startsWith('alias:') ? targets[value.slice('alias:'.length)] : value;
      if (url && IMAGE_URL.test(url)) urls[name] = url;
    }
    if (Object.keys(urls).length) mentions.emoji = urls;
  }
  return mentions;
}
