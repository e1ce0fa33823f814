/**
 * A Slack message's content as elements (DESIGN §6): the display nodes of model/slackContent
 * (blocks, rich text, attachment cards, file chips, huddles, reactions, '(edited)', deleted and
 * system lines) drawn with React, never from an HTML string.
 *
 * Every href is re-checked here (http, https, mailto) and shown by ExternalLink (the real host
 * beside a label that names another, the whole target as a title); every picture (custom emoji)
 * must be http or https; buttons and inputs of Block Kit are static labels, never working controls; files
 * link to Slack's own page, never a download through Sift. An attachment's colour bar is the one
 * colour taken from data: validated as '#rrggbb' again and set as the `--bar` custom property.
 */
import { format } from 'date-fns';
import { useMemo, type CSSProperties, type ReactNode } from 'react';
import { isSafeUrl, stripBidi, type Token } from '../../model/mrkdwn';
import {
  renderContent,
  type AttachmentNode,
  type ContentNames,
  type ContentNode,
  type FileIcon,
  type FileNode,
  type ReactionItem,
  type RichPart,
} from '../../model/slackContent';
import type { Message } from '../../model/types';
import { Icon } from './Icons';
import { ExternalLink, Tokens, isImageUrl } from './MessageText';
import '../styles-message.css';

function Mrkdwn({ tokens, className, edited = false }: { tokens: Token[]; className?: string; edited?: boolean }) {
  return (
    <div className={className ? `mrkdwn ${className}` : 'mrkdwn'}>
      <Tokens tokens={tokens} />
      {edited && <Edited />}
    </div>
  );
}

function Edited() {
  return <span className="edited"> (edited)</span>;
}

/* ------------------------------------------------------------------------------------------ */

function RichTextView({ parts }: { parts: RichPart[] }) {
  return (
    <div className="rich-text mrkdwn">
      {parts.map((part, i) => (
        <RichPartView key={i} part={part} />
      ))}
    </div>
  );
}

function RichPartView({ part }: { part: RichPart }) {
  switch (part.kind) {
    case 'paragraph':
      return (
        <p className="rich-paragraph">
          <Tokens tokens={part.tokens} />
        </p>
      );
    case 'quote':
      return (
        <blockquote>
          <Tokens tokens={part.tokens} />
        </blockquote>
      );
    case 'pre':
      return (
        <pre>
          <code>{part.text}</code>
        </pre>
      );
    case 'list': {
      const listItems = part.items.map((tokens, i) => (
        <li key={i}>
          <Tokens tokens={tokens} />
        </li>
      ));
      return part.ordered ? (
        <ol className="rich-list" data-indent={part.indent} start={part.start}>
          {listItems}
        </ol>
      ) : (
        <ul className="rich-list" data-indent={part.indent}>
          {listItems}
        </ul>
      );
    }
  }
}

/* ------------------------------------------------------------------------------------------ */

/** Labels of what an app's buttons and menus say: shown, not usable here. */
function StaticControls({ labels }: { labels: string[] }) {
  return (
    <div className="block-controls">
      {labels.map((label, i) => (
        <span key={i} className="block-control">
          {label}
        </span>
      ))}
    </div>
  );
}

const HEX = /^#[0-9a-f]{6}$/i;

/** The card's style: only a validated colour, as the `--bar` custom property. */
function barStyle(color: string | undefined): CSSProperties | undefined {
  return color && HEX.test(color) ? ({ '--bar': color } as CSSProperties) : undefined;
}

function AttachmentCard({ node, names }: { node: AttachmentNode; names: ContentNames }) {
  const style = barStyle(node.color);
  return (
    <div className="attachment-wrap">
      {node.pretext.length > 0 && <Mrkdwn tokens={node.pretext} className="attachment-pretext" />}
      <div className={style ? 'attachment has-bar' : 'attachment'} style={style}>
        {node.author && <ExternalLink url={node.author.url} className="attachment-author" label={node.author.name} />}
        {node.title && (
          <div className="attachment-title">
            <ExternalLink url={node.title.url} label={node.title.text} />
          </div>
        )}
        {node.text.length > 0 && <Mrkdwn tokens={node.text} className="attachment-text" />}
        {node.fields.length > 0 && (
          <div className="attachment-fields">
            {node.fields.map((field, i) => (
              <div key={i} className={field.short ? 'attachment-field short' : 'attachment-field'}>
                {field.title && <div className="attachment-field-title">{field.title}</div>}
                <Mrkdwn tokens={field.value} />
              </div>
            ))}
          </div>
        )}
        {node.image && (
          <div className="block-image">
            <ExternalLink url={node.image.url} label={`Image: ${node.image.alt}`} />
          </div>
        )}
        {node.blocks.map((block, i) => (
          <ContentNodeView key={i} node={block} names={names} />
        ))}
        {node.controls.length > 0 && <StaticControls labels={node.controls} />}
        {(node.footer.length > 0 || node.time !== undefined) && (
          <div className="attachment-footer">
            {node.footer.length > 0 && <Tokens tokens={node.footer} />}
            {node.footer.length > 0 && node.time !== undefined && <span aria-hidden="true"> · </span>}
            {node.time !== undefined && <time dateTime={new Date(node.time).toISOString()}>{format(node.time, 'MMM d, yyyy')}</time>}
          </div>
        )}
      </div>
    </div>
  );
}

/* ------------------------------------------------------------------------------------------ */

const FILE_KIND_LABEL: Record<FileIcon, string> = {
  image: 'Image',
  video: 'Video',
  audio: 'Audio',
  pdf: 'PDF',
  code: 'Code',
  archive: 'Archive',
  doc: 'Document',
  generic: 'File',
};

/** A file's icon: a page outline with a mark for its kind, or a picture, a film, a note. */
function FileGlyph({ kind }: { kind: FileIcon }) {
  const page = <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8zM14 3v5h5" />;
  switch (kind) {
    case 'image':
      return (
        <Icon size={20}>
          <rect x="3.5" y="5" width="17" height="14" rx="2" />
          <circle cx="9" cy="10" r="1.6" />
          <path d="M20 16l-5-5-8.5 8" />
        </Icon>
      );
    case 'video':
      return (
        <Icon size={20}>
          <rect x="3.5" y="5" width="17" height="14" rx="2" />
          <path d="M10 9.5l4.5 2.5-4.5 2.5z" />
        </Icon>
      );
    case 'audio':
      return (
        <Icon size={20}>
          <path d="M9 17V5l10-2v12" />
          <circle cx="6.5" cy="17" r="2.5" />
          <circle cx="16.5" cy="15" r="2.5" />
        </Icon>
      );
    case 'code':
      return (
        <Icon size={20}>
          {page}
          <path d="M10 12.5l-2 2 2 2M14 12.5l2 2-2 2" />
        </Icon>
      );
    case 'archive':
      return (
        <Icon size={20}>
          {page}
          <path d="M11 9v1.5M11 12v1.5M11 15v1.5" />
        </Icon>
      );
    case 'pdf':
    case 'doc':
      return (
        <Icon size={20}>
          {page}
          <path d="M9 13h6M9 16.5h6" />
        </Icon>
      );
    default:
      return <Icon size={20}>{page}</Icon>;
  }
}

function FileChip({ node }: { node: FileNode }) {
  const body = (
    <>
      <span className="file-icon" data-kind={node.icon}>
        <FileGlyph kind={node.icon} />
      </span>
      <span className="file-text">
        <span className="file-title">{node.title}</span>
        <span className="file-meta">
          {FILE_KIND_LABEL[node.icon]}
          {node.size ? ` · ${node.size}` : ''}
        </span>
      </span>
    </>
  );
  const className = node.available ? 'file-chip' : 'file-chip unavailable';
  if (node.url && isSafeUrl(node.url)) {
    return (
      <a className={className} href={node.url} target="_blank" rel="noopener noreferrer" title="Open in Slack">
        {body}
      </a>
    );
  }
  return <div className={className}>{body}</div>;
}

/* ------------------------------------------------------------------------------------------ */

/** ':tada: 3 reactions, including you'. */
export function reactionLabel(item: ReactionItem): string {
  const count = `${item.count} ${item.count === 1 ? 'reaction' : 'reactions'}`;
  return `:${item.name}: ${count}${item.mine ? ', including you' : ''}`;
}

function ReactionEmoji({ item }: { item: ReactionItem }) {
  if (item.char !== null) return <span className="emoji">{item.char}</span>;
  if (isImageUrl(item.url)) return <img className="emoji custom-emoji" src={item.url} alt={`:${item.name}:`} loading="lazy" referrerPolicy="no-referrer" />;
  return <span className="reaction-code">:{stripBidi(item.name)}:</span>;
}

function Reactions({ items }: { items: ReactionItem[] }) {
  return (
    <ul className="reactions" aria-label="Reactions">
      {items.map((item) => (
        <li key={item.name} className={item.mine ? 'reaction mine' : 'reaction'} aria-label={reactionLabel(item)}>
          <span aria-hidden="true">
            <ReactionEmoji item={item} /> <span className="reaction-count">{item.count}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}

/* ------------------------------------------------------------------------------------------ */

function ContentNodeView({ node, names, edited = false }: { node: ContentNode; names: ContentNames; edited?: boolean }): ReactNode {
  switch (node.kind) {
    case 'text':
      return <Mrkdwn tokens={node.tokens} className={node.me ? 'me-message' : undefined} edited={edited} />;
    case 'deleted':
      return <p className="deleted-message">This message was deleted.</p>;
    case 'system':
      return <p className="system-line">{node.text}</p>;
    case 'header':
      return (
        <h3 className="block-header">
          <Tokens tokens={node.tokens} />
        </h3>
      );
    case 'section':
      return (
        <div className="block-section">
          <div className="block-section-main">
            {node.tokens.length > 0 && <Mrkdwn tokens={node.tokens} />}
            {node.fields.length > 0 && (
              <div className="block-fields">
                {node.fields.map((field, i) => (
                  <Mrkdwn key={i} tokens={field} className="block-field" />
                ))}
              </div>
            )}
          </div>
          {node.accessory && <span className="block-control">{node.accessory}</span>}
        </div>
      );
    case 'context':
      return (
        <div className="block-context">
          {node.items.map((item, i) =>
            item.kind === 'image' ? (
              <span key={i} className="context-image">
                {item.alt}
              </span>
            ) : (
              <span key={i} className="mrkdwn">
                <Tokens tokens={item.tokens} />
              </span>
            ),
          )}
        </div>
      );
    case 'divider':
      return <hr className="block-divider" />;
    case 'rich_text':
      return <RichTextView parts={node.parts} />;
    case 'image':
      return (
        <div className="block-image">
          {node.title && <div className="block-image-title">{node.title}</div>}
          <ExternalLink url={node.url && isImageUrl(node.url) ? node.url : undefined} label={`Image: ${node.alt}`} />
        </div>
      );
    case 'controls':
      return <StaticControls labels={node.labels} />;
    case 'input':
      return (
        <div className="block-input">
          <span className="block-control">{node.label}</span>
        </div>
      );
    case 'video':
      return (
        <div className="block-image">
          <ExternalLink url={node.url && isImageUrl(node.url) ? node.url : undefined} label={`Video: ${node.title}`} />
        </div>
      );
    case 'attachment':
      return <AttachmentCard node={node} names={names} />;
    case 'file':
      return <FileChip node={node} />;
    case 'huddle':
      return (
        <div className="huddle-card">
          <div className="huddle-name">Huddle: {node.name}</div>
          {node.notesTitle && <div className="huddle-notes-title">{node.notesTitle}</div>}
          {node.summary && <p className="huddle-summary">{node.summary}</p>}
        </div>
      );
    case 'edited':
      return <Edited />;
    case 'reactions':
      return <Reactions items={node.items} />;
  }
}

/** A message's content, as Slack shows it; '(edited)' ends the text it follows, on its line. */
export function MessageContent({ message, names }: { message: Message; names: ContentNames }) {
  const nodes = useMemo(() => renderContent(message, names), [message, names]);
  return (
    <div className="message-content">
      {nodes.map((node, i) => {
        if (node.kind === 'edited' && nodes[i - 1]?.kind === 'text') return null;
        return <ContentNodeView key={i} node={node} names={names} edited={node.kind === 'text' && nodes[i + 1]?.kind === 'edited'} />;
      })}
    </div>
  );
}
