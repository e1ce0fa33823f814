/**
 * Desktop notifications (SPEC §4.3, §4.15): permission is asked 2 s after start-up when it
 * is undecided; a message from someone else raises a notification only while the page is
 * hidden and permission is granted; it closes after 5 s, and a click focuses the window
 * and opens the conversation.
 */
import { useEffect } from 'react';
import { NOTIFICATION_AUTO_CLOSE_MS, NOTIFICATION_PERMISSION_DELAY_MS } from '../../model/constants';
import { notificationTitle } from '../../model/notification';
import type { IncomingMessage } from '../../worker/engine';
import { remoteStream } from '../engine';

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
  useEffect(() => {
    if (typeof Notification === 'undefined') return undefined;
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
      if (Notification.permission === 'default') void Notification.requestPermission().catch(() => undefined);
    }, NOTIFICATION_PERMISSION_DELAY_MS);
    const subscription = remoteStream<IncomingMessage>((api, o) => api.incoming(o)).subscribe((message) => {
      if (document.visibilityState !== 'hidden' || Notification.permission !== 'granted') return;
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
  }, [open]);
}
