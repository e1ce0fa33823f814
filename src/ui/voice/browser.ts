/**
 * The browser interfaces voice input uses, typed here (the Web Speech API is not in every
 * DOM lib) and looked up when used, so tests can put fakes on window and navigator.
 */
import { AUDIO_FORMAT_PREFERENCE } from '../../model/ai';

export interface SpeechAlternativeLike {
  transcript: string;
}
export interface SpeechResultLike {
  readonly isFinal: boolean;
  readonly length: number;
  [index: number]: SpeechAlternativeLike;
}
export interface SpeechResultEventLike {
  resultIndex: number;
  results: { readonly length: number; [index: number]: SpeechResultLike };
}
export interface SpeechErrorEventLike {
  error: string;
}

export interface SpeechRecognitionLike {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  onresult: ((event: SpeechResultEventLike) => void) | null;
  onerror: ((event: SpeechErrorEventLike) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}

export type SpeechRecognitionConstructor = new () => SpeechRecognitionLike;

/** window.SpeechRecognition, else the prefixed one, else undefined. */
export function speechRecognitionClass(): SpeechRecognitionConstructor | undefined {
  if (typeof window === 'undefined') return undefined;
  const w = window as unknown as { SpeechRecognition?: SpeechRecognitionConstructor; webkitSpeechRecognition?: SpeechRecognitionConstructor };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition;
}

export function recordingSupported(): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.getUserMedia === 'function' && typeof globalThis.MediaRecorder === 'function';
}

/** The first format of SPEC §9's preference that this browser records, or undefined. */
export function recordingFormat(): string | undefined {
  const recorder = globalThis.MediaRecorder;
  if (typeof recorder?.isTypeSupported !== 'function') return undefined;
  return AUDIO_FORMAT_PREFERENCE.find((type) => recorder.isTypeSupported(type));
}

/** 'audio/webm;codecs=opus' → 'webm', 'audio/wav' → 'wav'. */
export function fileExtension(mimeType: string): string {
  return mimeType.split(';')[0]!.split('/')[1] ?? 'webm';
}
