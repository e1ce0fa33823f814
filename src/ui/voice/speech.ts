/** Answers read aloud in voice mode (SPEC §2.9, §9): speechSynthesis, en-US, rate, pitch and volume 1. */
import { SPEECH_SYNTHESIS } from '../../model/ai';
import { SPEECH_LANGUAGE } from '../../model/constants';

/** What is worth saying: no [n] references, no bullet marks. */
export function speakableText(text: string): string {
  return (
    text
      // Matched from the first of the spaces before '[', and from a line's own indent only: from
      // each start inside a run of spaces or blank lines, the run was re-read (quadratic).
      .replace(/(?<!\s)\s*\[\d+(?:\s*,\s*\d+)*\]/g, '')
      .replace(/^[ \t\u00a0]*[•*-]\s+/gm, '')
      .trim()
  );
}

function synthesis(): SpeechSynthesis | undefined {
  return typeof window !== 'undefined' && 'speechSynthesis' in window ? window.speechSynthesis : undefined;
}

/** Reads the text aloud, cutting off whatever was being read. */
export function speak(text: string): void {
  const synth = synthesis();
  const words = speakableText(text);
  if (!synth || !words || typeof SpeechSynthesisUtterance === 'undefined') return;
  synth.cancel();
  const utterance = new SpeechSynthesisUtterance(words);
  utterance.lang = SPEECH_LANGUAGE;
  utterance.rate = SPEECH_SYNTHESIS.rate;
  utterance.pitch = SPEECH_SYNTHESIS.pitch;
  utterance.volume = SPEECH_SYNTHESIS.volume;
  synth.speak(utterance);
}

export function stopSpeaking(): void {
  synthesis()?.cancel();
}
