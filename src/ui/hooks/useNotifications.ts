/**
 * Desktop notifications (SPEC §4.3, §4.15): permission is asked 2 s after start-up when it
 * is undecided; a message from someone else raises a notification only while the page is
 * hidden and permission is granted; it closes after 5 s, and a click focuses the window
 * and opens the conversation. While the page is visible, the same message is said through
 * the page's polite announcer instead (issue 13 §3): 'New message from Dana Reyes in
 * #payments'; several within the announcer's gap are said as one ('3 new messages, the
 * latest from …'). Only live messages come here (the engine leaves out replays, own messages
 * and thread replies), so opening a long conversation announces nothing.
 */
import { useEffect } from 'react';
import { NOTIFICATION_AUTO_CLOSE_MS, NOTIFICATION_PERMISSION_DELAY_MS } from '../../model/constants';
import { notificationTitle } from '../../model/notification';
import type { IncomingMessage } from '../../worker/engine';
import { useAnnounce, type AnnounceOptions } from '../components/Announcer';
import { command, remoteStream } from '../engine';

const NEW_MESSAGE = 'New message ';

/** 'New message from Dana Reyes in #payments' (a channel), 'New message from Dana Reyes' (a DM). */
export function newMessageText(message: IncomingMessage, type: 'dm' | 'channel' | 'thread' | undefined): string {
  if (type === 'dm') return `${NEW_MESSAGE}from ${message.author}`;
  return `${NEW_MESSAGE}from ${message.author} in ${type === 'channel' ? '#' : ''}${message.title}`;
}

export const NEW_MESSAGES: AnnounceOptions = {
  kind: 'new-message',
  many: (texts) => `${texts.length} new messages, the latest ${texts[texts.length - 1]!.slice(NEW_MESSAGE.length)}`,
};

/** A short, soft chime: browsers allow sound only after the first interaction (SPEC §4.15). */
function chime(context: AudioContext): void {
  const oscillator = context.createOscillator();
  const gain = context.createGain();
  oscillator.frequency.value = 880;
  gain.gain.setValueAtTime(0.08, context.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.0001, context.currentTime + 0.25);
  oscillator.connect(gain).connect(context.destination);
  oscillator.start();
  oscillator.stop(context.currentTime + 0.25);
}

export function useNotifications(open: (conversationId: string) => void): void {
  const announce = useAnnounce();
  useEffect(() => {
    const notifications = typeof Notification !== 'undefined';
    // Sound is allowed once the page has had an interaction (sticky activation). Creating the
    // AudioContext costs tens of milliseconds, so it waits for the first chime.
    let interacted = false;
    let audio: AudioContext | null = null;
    const enableSound = () => {
      interacted = true;
    };
    window.addEventListener('pointerdown', enableSound, { once: true });
    window.addEventListener('keydown', enableSound, { once: true });
    const timer = window.setTimeout(() => {
      if (notifications && Notification.permission === 'default') void Notification.requestPermission().catch(() => undefined);
    }, NOTIFICATION_PERMISSION_DELAY_MS);
    const subscription = remoteStream<IncomingMessage>((api, o) => api.incoming(o)).subscribe((message) => {
      if (document.visibilityState !== 'hidden') {
        // The conversation's kind says whether its name takes a '#'.
        void command((api) => api.facts(message.conversationId)).then(
          (facts) => announce(newMessageText(message, facts?.type), NEW_MESSAGES),
          () => announce(newMessageText(message, undefined), NEW_MESSAGES),
        );
        return;
      }
      if (!notifications || Notification.permission !== 'granted') return;
      const notification = new Notification(notificationTitle(message.author, message.title), { body: message.body, tag: message.conversationId });
      if (interacted && typeof AudioContext !== 'undefined') chime((audio ??= new AudioContext()));
      const close = window.setTimeout(() => notification.close(), NOTIFICATION_AUTO_CLOSE_MS);
      notification.onclick = () => {
        window.clearTimeout(close);
        window.focus();
        open(message.conversationId);
        notification.close();
      };
    });
    return () => {
      window.clearTimeout(timer);
      subscription.unsubscribe();
      window.removeEventListener('pointerdown', enableSound);
      window.removeEventListener('keydown', enableSound);
      void audio?.close();
    };
  }, [open, announce]);
}
