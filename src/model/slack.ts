/**
 * A Slack message's content as Slack sends it (conversations.history, Events API), beyond its
 * `text`: Block Kit blocks, legacy attachments, files, reactions, the bot that posted it, the
 * external person's profile, the huddle room. Shapes from Slack's Web API (objs_message,
 * objs_file, objs_bot_profile, objs_reaction) and Block Kit references; every field optional
 * and read defensively: the page and the server treat all of it as untrusted JSON.
 */

/** A Block Kit composition text object. */
export interface SlackTextObject {
  type: 'plain_text' | 'mrkdwn';
  text: string;
  emoji?: boolean;
  verbatim?: boolean;
}

/** An element of a rich_text section, list, quote or preformatted block. */
export interface RichTextElement {
  type: 'text' | 'link' | 'user' | 'channel' | 'usergroup' | 'broadcast' | 'emoji' | 'date' | 'color' | 'team' | (string & {});
  text?: string;
  url?: string;
  user_id?: string;
  channel_id?: string;
  usergroup_id?: string;
  team_id?: string;
  /** broadcast: here | channel | everyone */
  range?: string;
  name?: string;
  unicode?: string;
  skin_tone?: number;
  timestamp?: number;
  format?: string;
  fallback?: string;
  value?: string;
  style?: { bold?: boolean; italic?: boolean; strike?: boolean; code?: boolean };
}

/** rich_text's children: sections, lists, quotes, preformatted. */
export interface RichTextBlockElement {
  type: 'rich_text_section' | 'rich_text_list' | 'rich_text_quote' | 'rich_text_preformatted' | (string & {});
  elements?: Array<RichTextElement | RichTextBlockElement>;
  /** rich_text_list */
  style?: 'bullet' | 'ordered';
  indent?: number;
  offset?: number;
  border?: number;
}

/** A Block Kit block (layout block); unknown types are shown by whatever text they carry. */
export interface SlackBlock {
  type: 'header' | 'section' | 'context' | 'divider' | 'rich_text' | 'image' | 'actions' | 'input' | 'video' | 'file' | 'call' | (string & {});
  block_id?: string;
  text?: SlackTextObject;
  fields?: SlackTextObject[];
  /** section accessory, input element… */
  accessory?: Record<string, unknown>;
  element?: Record<string, unknown>;
  label?: SlackTextObject;
  hint?: SlackTextObject;
  /** context: text objects and image elements; actions: buttons, selects…; rich_text: its parts. */
  elements?: Array<Record<string, unknown>>;
  /** image */
  image_url?: string;
  alt_text?: string;
  title?: SlackTextObject;
  /** video */
  title_url?: string;
  description?: SlackTextObject;
}

export interface SlackAttachmentField {
  title?: string;
  value?: string;
  short?: boolean;
}

/** A legacy (secondary) attachment, as apps such as PagerDuty, GitHub and Jenkins still send. */
export interface SlackAttachment {
  id?: number;
  fallback?: string;
  color?: string;
  pretext?: string;
  author_name?: string;
  author_link?: string;
  author_icon?: string;
  title?: string;
  title_link?: string;
  text?: string;
  fields?: SlackAttachmentField[];
  image_url?: string;
  thumb_url?: string;
  footer?: string;
  footer_icon?: string;
  ts?: number | string;
  mrkdwn_in?: string[];
  /** Newer apps put Block Kit blocks inside an attachment. */
  blocks?: SlackBlock[];
  /** Unfurls of links and messages. */
  service_name?: string;
  from_url?: string;
  original_url?: string;
  is_msg_unfurl?: boolean;
  actions?: Array<{ text?: string; type?: string; url?: string }>;
}

export interface SlackFile {
  id: string;
  name?: string;
  title?: string;
  mimetype?: string;
  filetype?: string;
  pretty_type?: string;
  size?: number;
  permalink?: string;
  mode?: string;
  is_external?: boolean;
  external_type?: string;
  /** A file the member may not see: Slack sends a stub with mode 'hidden_by_limit' or 'tombstone'. */
  file_access?: string;
  /** A post's plain-text preview (snippets, posts). */
  preview?: string;
}

export interface SlackReaction {
  /** The emoji's short code, with '::skin-tone-N' for a skin tone. */
  name: string;
  count: number;
  users: string[];
}

export interface SlackBotProfile {
  id?: string;
  app_id?: string;
  name?: string;
  deleted?: boolean;
  icons?: { image_36?: string; image_48?: string; image_72?: string };
  team_id?: string;
}

/** A Slack Connect author's profile, carried on their messages. */
export interface SlackUserProfileShort {
  avatar_hash?: string;
  image_72?: string;
  first_name?: string;
  real_name?: string;
  display_name?: string;
  team?: string;
  name?: string;
  is_restricted?: boolean;
  is_ultra_restricted?: boolean;
}

/** A huddle's room on a `huddle_thread` message. */
export interface SlackHuddleRoom {
  id?: string;
  name?: string;
  /** Who took part. */
  participant_history?: string[];
  participants?: string[];
  date_start?: number;
  date_end?: number;
  /** Slack AI's huddle notes, when the workspace has them. */
  canvas?: { title?: string; summary?: string };
}

/**
 * What Sift keeps of a Slack message beside its text, as Slack sent it. Only what is set
 * travels; a message of the demo workspace has none of it.
 */
export interface SlackContent {
  blocks?: SlackBlock[];
  attachments?: SlackAttachment[];
  files?: SlackFile[];
  reactions?: SlackReaction[];
  /** Present when the message was edited. */
  edited?: { user?: string; ts: string };
  bot_id?: string;
  bot_profile?: SlackBotProfile;
  /** The name an app or webhook posted under. */
  username?: string;
  user_profile?: SlackUserProfileShort;
  /** The author's team, when it is not the workspace's (Slack Connect). */
  user_team?: string;
  room?: SlackHuddleRoom;
  /** thread_broadcast: the thread's root message. */
  root?: { ts?: string; user?: string; text?: string };
}

export const SLACK_CONTENT_KEYS = [
  'blocks',
  'attachments',
  'files',
  'reactions',
  'edited',
  'bot_id',
  'bot_profile',
  'username',
  'user_profile',
  'user_team',
  'room',
  'root',
] as const satisfies ReadonlyArray<keyof SlackContent>;

/**
 * Subtypes Slack's client shows as a line about the conversation rather than a message: they
 * never count as unread and never become a row's preview. (group_* are the legacy private-channel
 * names of the same events.)
 */
export const SYSTEM_SUBTYPES: ReadonlySet<string> = new Set([
  'channel_join',
  'channel_leave',
  'channel_topic',
  'channel_purpose',
  'channel_name',
  'channel_archive',
  'channel_unarchive',
  'pinned_item',
  'unpinned_item',
  'bot_add',
  'bot_remove',
  'group_join',
  'group_leave',
  'group_topic',
  'group_purpose',
  'group_name',
  'group_archive',
  'group_unarchive',
]);

export function isSystemSubtype(subtype: string | undefined | null): boolean {
  return typeof subtype === 'string' && SYSTEM_SUBTYPES.has(subtype);
}

/**
 * Subtypes that are no news for a reader: the system lines, and the tombstone Slack leaves of a
 * deleted thread parent ('This message was deleted.'). They never count as unread, never become
 * a row's preview, and are not searched.
 */
export const QUIET_SUBTYPES: ReadonlySet<string> = new Set([...SYSTEM_SUBTYPES, 'tombstone']);

export function isQuietSubtype(subtype: string | undefined | null): boolean {
  return typeof subtype === 'string' && QUIET_SUBTYPES.has(subtype);
}

/** What a reader of a message reads (previews, search, notifications, the AI): its derived text, else its text. */
export function readableText(m: { text: string; resolved_text?: string }): string {
  return m.resolved_text ?? m.text;
}

/*
 * Mention ids in Slack markup. A label (`|…`) never holds a raw '<' (Slack escapes it), so it
 * stops there: `[^>]*` would scan to the end of the text for every unclosed tag, which made
 * 40,000 characters of `<#C1|` quadratic (bench/hostileText.ts).
 */
const USER_MENTION = /<@([UWB][A-Z0-9]{1,24})(?:\|[^<>]*)?>/g;
const CHANNEL_MENTION = /<#([CGD][A-Z0-9]{1,24})(?:\|[^<>]*)?>/g;
const UNNAMED_CHANNEL_MENTION = /<#([CGD][A-Z0-9]{1,24})\|?>/g;
const USERGROUP_MENTION = /<!subteam\^([A-Z0-9]{2,24})(?:\|[^<>]*)?>/g;

const idsOf = (pattern: RegExp, text: string): string[] => Array.from(text.matchAll(pattern), (m) => m[1]!);

/** The user ids `<@U…>` mentions name, in order (repeats kept). */
export const userMentions = (text: string): string[] => idsOf(USER_MENTION, text);
/** The conversation ids `<#C…>` mentions name. */
export const channelMentions = (text: string): string[] => idsOf(CHANNEL_MENTION, text);
/** The conversation ids of channel mentions that carry no name of their own (`<#C…>`, `<#C…|>`). */
export const unnamedChannelMentions = (text: string): string[] => idsOf(UNNAMED_CHANNEL_MENTION, text);
/** The user group ids `<!subteam^S…>` mentions name. */
export const usergroupMentions = (text: string): string[] => idsOf(USERGROUP_MENTION, text);
