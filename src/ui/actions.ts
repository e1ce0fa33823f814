/** A request to open a conversation from elsewhere (the palette, a notification). */
export interface OpenConversation {
  id: string;
  highlightTs?: string;
  focusInput?: boolean;
  nonce: number;
}
