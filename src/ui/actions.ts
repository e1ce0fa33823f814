/** Commands of the app, as the search palette's Actions section runs them (issue 5 §3). */
export interface AppAction {
  id: string;
  label: string;
  keys?: string[];
  run(): void;
}

/** A request to open a conversation from elsewhere (the palette, a notification). */
export interface OpenConversation {
  id: string;
  highlightTs?: string;
  focusInput?: boolean;
  nonce: number;
}
