/**
 * A message's Slack markup as React elements (DESIGN §6): tokens from src/model/mrkdwn, each
 * turned into an element whose text React escapes; no HTML string is ever injected. Links are
 * re-checked (http, https, mailto) and shown as model/linkSafety decides: a label that names
 * another address gets the real host beside it, and every link its whole target as a title. A
 * custom emoji's picture must be http or https.
 */
import { Fragment, useMemo, type ReactNode } from 'react';
import { linkPresentation } from '../../model/linkSafety';
import { isSafeUrl, stripBidi, tokenize, type MrkdwnNames, type Token } from '../../model/mrkdwn';
import '../styles-message.css';

/** Quotes and pre blocks are blocks: a newline right after one would add an empty line. */
function isBlock(token: Token | undefined): boolean {
  return token?.kind === 'quote' || token?.kind === 'pre';
}

/** A custom emoji's picture address: http or https only. */
export function isImageUrl(url: string | undefined): url is string {
  return typeof url === 'string' && /^https?:\/\//i.test(url) && isSafeUrl(url);
}

/**
 * A link to an outside address, as linkPresentation shows it: the label, the real host beside it
 * when the label names another, the whole target as the title. Only http:, https: and mailto:
 * ever become an href (checked again here); any other address leaves the label as text.
 */
export function ExternalLink({ url, label, className }: { url: string | undefined; label: string; className?: string }) {
  if (!url || !isSafeUrl(url)) return <span className={className}>{stripBidi(label)}</span>;
  const shown = linkPresentation(url, label);
  // A dir attribute isolates each part (as <bdi> does): right-to-left text in the label cannot
  // move the revealed host, which reads left to right.
  return (
    <a href={url} className={className} title={shown.title} target="_blank" rel="noopener noreferrer">
      <span dir="auto">{shown.label}</span>
      {shown.reveal !== undefined && (
        // The space is inside the inline-block (where it collapses: its margin is the gap), so the
        // link's underline stops at the label while the text still reads 'label (host)'.
        <span className="link-target" dir="ltr">
          {` (${shown.reveal})`}
        </span>
      )}
    </a>
  );
}

function renderTokens(tokens: Token[]): ReactNode[] {
  const out: ReactNode[] = [];
  tokens.forEach((token, i) => {
    if (token.kind === 'newline' && isBlock(tokens[i - 1])) return;
    out.push(<Fragment key={i}>{renderToken(token)}</Fragment>);
  });
  return out;
}

function renderToken(token: Token): ReactNode {
  switch (token.kind) {
    case 'text':
      return token.text;
    case 'bold':
      return <strong>{renderTokens(token.children)}</strong>;
    case 'italic':
      return <em>{renderTokens(token.children)}</em>;
    case 'strike':
      return <s>{renderTokens(token.children)}</s>;
    case 'code':
      return <code>{token.text}</code>;
    case 'pre':
      return (
        <pre>
          <code>{token.text}</code>
        </pre>
      );
    case 'quote':
      return <blockquote>{renderTokens(token.children)}</blockquote>;
    case 'user':
      return <span className="mention">@{stripBidi(token.name)}</span>;
    case 'channel':
      return <span className="mention channel">#{stripBidi(token.name)}</span>;
    case 'broadcast':
      return <span className="mention broadcast">@{stripBidi(token.name)}</span>;
    case 'link':
      return <ExternalLink url={token.url} label={stripBidi(token.label) || token.url} />;
    case 'emoji':
      if (token.char !== null) {
        return (
          <span className="emoji" role="img" aria-label={`:${token.code}:`}>
            {token.char}
          </span>
        );
      }
      if (isImageUrl(token.url))
        return <img className="emoji custom-emoji" src={token.url} alt={`:${token.code}:`} loading="lazy" referrerPolicy="no-referrer" />;
      return `:${token.code}:`;
    case 'newline':
      return <br />;
  }
}

/** Tokens already made (by the model's content renderer) as inline elements. */
export function Tokens({ tokens }: { tokens: Token[] }) {
  return <>{renderTokens(tokens)}</>;
}

export function MessageText({ text, names }: { text: string; names: MrkdwnNames }) {
  const tokens = useMemo(() => tokenize(text, names), [text, names]);
  return <div className="mrkdwn">{renderTokens(tokens)}</div>;
}
