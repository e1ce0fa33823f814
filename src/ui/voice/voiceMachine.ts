/**
 * Voice input as a pure state machine (SPEC §4.13, §8 'Voice', §9): `voiceMachine(state, event)`
 * answers the next state and the effects to run. The hook (useVoiceInput) runs the effects
 * against the browser (speech recognition, microphone recording, timers, sending) and turns
 * what the browser reports back into events. No browser API and no time here.
 *
 *   idle ──start──▶ listening ──result…──▶ (1.5 s silence, auto-send) ──▶ idle + send(text)
 *     │               │  └─stop──▶ idle + send(text)        └─cancel──▶ idle (discarded)
 *     │               └─error(network|service…)──▶ recording + notice 'Switching to audio recording mode...'
 *     └─start (recording mode)──▶ recording ──stop──▶ transcribing ──transcribed──▶ idle + send(text)
 *                                    └─cancel──▶ idle          └─failed──▶ error 'Transcription failed: …'
 *   error ──start──▶ (as idle)
 */
import { FALLBACK_SPEECH_ERRORS, SILENT_SPEECH_ERRORS, VOICE_ERRORS } from '../../model/ai';

export type VoiceStatus = 'idle' | 'listening' | 'recording' | 'transcribing' | 'error';
/** How `start` listens: the browser's speech recognition, or a recording transcribed by the server. */
export type VoiceMode = 'speech' | 'recording';

export interface VoiceSupport {
  /** window.SpeechRecognition or webkitSpeechRecognition exists. */
  speech: boolean;
  /** navigator.mediaDevices.getUserMedia and MediaRecorder exist. */
  recording: boolean;
}

export interface VoiceState {
  status: VoiceStatus;
  mode: VoiceMode;
  support: VoiceSupport;
  /** Send after 1.5 s of silence (speech mode). */
  autoSend: boolean;
  /** Final speech so far, accumulated over results. */
  transcript: string;
  /** The words not final yet. */
  interim: string;
  /** A passing notice (the switch to recording), cleared by `noticeTimeout`. */
  notice: string | null;
  /** The error shown in the error state. */
  error: string | null;
}

export type VoiceEvent =
  | { type: 'start' }
  /** The user ends the turn: speech is sent, a recording is uploaded. */
  | { type: 'stop' }
  /** The user discards the turn. */
  | { type: 'cancel' }
  /** A recognition result: the final text it adds and the interim text it shows now. */
  | { type: 'result'; final: string; interim: string }
  /** No result for 1.5 s while listening. */
  | { type: 'silence' }
  /** Recognition ended by itself. */
  | { type: 'end' }
  /** recognition.start() threw. */
  | { type: 'startFailed' }
  /** recognition.onerror, with its code. */
  | { type: 'speechError'; code: string }
  /** Switch to the browser's speech recognition or to recording (the user's choice). */
  | { type: 'switchMode'; mode: VoiceMode }
  | { type: 'setAutoSend'; on: boolean }
  /** Send what was heard so far (idle with a kept transcript). */
  | { type: 'send' }
  /** Recording could not start or failed on the way. */
  | { type: 'recordingError'; phase: 'unsupported' | 'noFormat' | 'start' | 'record'; reason?: string }
  /** The server's transcript of the recording. */
  | { type: 'transcribed'; text: string }
  | { type: 'transcriptionFailed'; reason?: string }
  /** The switch notice's 3 s are over. */
  | { type: 'noticeTimeout' }
  /** Dismiss the error. */
  | { type: 'dismiss' };

export type VoiceEffect =
  | { type: 'startRecognition' }
  /** Stop listening, dropping any result still to come. */
  | { type: 'stopRecognition' }
  | { type: 'startRecording' }
  /** Stop recording and upload it for transcription. */
  | { type: 'stopRecording' }
  /** Stop recording and throw it away. */
  | { type: 'discardRecording' }
  /** (Re)start the 1.5 s silence timer. */
  | { type: 'armSilence' }
  | { type: 'disarmSilence' }
  /** Clear the notice in 3 s. */
  | { type: 'clearNoticeLater' }
  /** Send this text as the user's message. */
  | { type: 'send'; text: string };

export interface VoiceStep {
  state: VoiceState;
  effects: VoiceEffect[];
}

export function initialVoiceState(support: VoiceSupport, autoSend = true): VoiceState {
  return {
    status: 'idle',
    mode: support.speech || !support.recording ? 'speech' : 'recording',
    support,
    autoSend,
    transcript: '',
    interim: '',
    notice: null,
    error: null,
  };
}

/** Final pieces join with one space. */
function join(a: string, b: string): string {
  const right = b.trim();
  if (!right) return a;
  return a ? `${a} ${right}` : right;
}

const heard = (state: VoiceState) => join(state.transcript, state.interim).trim();

const fail = (state: VoiceState, error: string, effects: VoiceEffect[] = []): VoiceStep => ({
  state: { ...state, status: 'error', error, transcript: '', interim: '' },
  effects,
});

/** Start listening in the state's mode, or say why it cannot. */
function start(state: VoiceState): VoiceStep {
  const fresh = { ...state, transcript: '', interim: '', error: null };
  if (state.mode === 'speech') {
    if (!state.support.speech) return fail(fresh, VOICE_ERRORS.unsupportedBrowser);
    return { state: { ...fresh, status: 'listening' }, effects: [{ type: 'startRecognition' }] };
  }
  if (!state.support.recording) return fail(fresh, VOICE_ERRORS.recordingUnsupported);
  return { state: { ...fresh, status: 'recording' }, effects: [{ type: 'startRecording' }] };
}

/** Ends a listening turn: idle, and the words heard are sent (or kept, to send by hand, without auto-send). */
function finishListening(state: VoiceState, sendNow: boolean): VoiceStep {
  const text = heard(state);
  const effects: VoiceEffect[] = [{ type: 'disarmSilence' }, { type: 'stopRecognition' }];
  if (text && sendNow) return { state: { ...state, status: 'idle', transcript: '', interim: '' }, effects: [...effects, { type: 'send', text }] };
  return { state: { ...state, status: 'idle', transcript: text, interim: '' }, effects };
}

export function voiceMachine(state: VoiceState, event: VoiceEvent): VoiceStep {
  const same: VoiceStep = { state, effects: [] };
  switch (event.type) {
    case 'start':
      return state.status === 'idle' || state.status === 'error' ? start(state) : same;

    case 'result': {
      if (state.status !== 'listening') return same;
      const next = { ...state, transcript: join(state.transcript, event.final), interim: event.interim.trim() };
      return { state: next, effects: state.autoSend ? [{ type: 'armSilence' }] : [] };
    }

    case 'silence':
      if (state.status !== 'listening' || !state.autoSend || !heard(state)) return same;
      return finishListening(state, true);

    case 'stop':
      if (state.status === 'listening') return finishListening(state, true);
      if (state.status === 'recording') return { state: { ...state, status: 'transcribing' }, effects: [{ type: 'stopRecording' }] };
      return same;

    case 'end':
      // Recognition stopped by itself (a long silence, the browser's limit): keep or send what was heard.
      return state.status === 'listening' ? finishListening(state, state.autoSend) : same;

    case 'cancel':
      switch (state.status) {
        case 'listening':
          return { state: { ...state, status: 'idle', transcript: '', interim: '' }, effects: [{ type: 'disarmSilence' }, { type: 'stopRecognition' }] };
        case 'recording':
          return { state: { ...state, status: 'idle' }, effects: [{ type: 'discardRecording' }] };
        case 'transcribing':
          // The upload's answer is ignored once no longer transcribing.
          return { state: { ...state, status: 'idle' }, effects: [] };
        default:
          return { state: { ...state, status: 'idle', transcript: '', interim: '', error: null }, effects: [] };
      }

    case 'send': {
      const text = heard(state);
      if (state.status !== 'idle' || !text) return same;
      return { state: { ...state, transcript: '', interim: '' }, effects: [{ type: 'send', text }] };
    }

    case 'startFailed':
      if (state.status !== 'listening') return same;
      return fail(state, VOICE_ERRORS.startFailed, [{ type: 'disarmSilence' }]);

    case 'speechError': {
      if (state.status !== 'listening') return same;
      if (SILENT_SPEECH_ERRORS.includes(event.code)) return same;
      if (FALLBACK_SPEECH_ERRORS.includes(event.code)) {
        // SPEC §4.13: the browser's speech service is unreachable: record instead, and say so for 3 s.
        const switched = { ...state, mode: 'recording' as const, notice: VOICE_ERRORS.switching };
        const next = start(switched);
        return { state: next.state, effects: [{ type: 'disarmSilence' }, { type: 'stopRecognition' }, ...next.effects, { type: 'clearNoticeLater' }] };
      }
      return fail(state, VOICE_ERRORS.recognition(event.code), [{ type: 'disarmSilence' }, { type: 'stopRecognition' }]);
    }

    case 'switchMode': {
      if (event.mode === state.mode || state.status === 'transcribing') return same;
      if (event.mode === 'speech' && !state.support.speech) return fail(state, VOICE_ERRORS.unsupported);
      if (event.mode === 'recording' && !state.support.recording) return fail(state, VOICE_ERRORS.recordingUnsupported);
      const effects: VoiceEffect[] =
        state.status === 'listening'
          ? [{ type: 'disarmSilence' }, { type: 'stopRecognition' }]
          : state.status === 'recording'
            ? [{ type: 'discardRecording' }]
            : [];
      return { state: { ...state, mode: event.mode, status: 'idle', transcript: '', interim: '', error: null, notice: null }, effects };
    }

    case 'setAutoSend': {
      const next = { ...state, autoSend: event.on };
      if (state.status !== 'listening') return { state: next, effects: [] };
      return { state: next, effects: [event.on ? { type: 'armSilence' } : { type: 'disarmSilence' }] };
    }

    case 'recordingError': {
      if (state.status !== 'recording' && state.status !== 'transcribing') return same;
      const text =
        event.phase === 'unsupported'
          ? VOICE_ERRORS.recordingUnsupported
          : event.phase === 'noFormat'
            ? VOICE_ERRORS.noFormat
            : event.phase === 'start'
              ? VOICE_ERRORS.recordingStartFailed(event.reason ?? 'unknown error')
              : VOICE_ERRORS.recordingFailed(event.reason ?? 'unknown error');
      return fail(state, text, [{ type: 'discardRecording' }]);
    }

    case 'transcribed': {
      if (state.status !== 'transcribing') return same;
      const text = event.text.trim();
      return { state: { ...state, status: 'idle' }, effects: text ? [{ type: 'send', text }] : [] };
    }

    case 'transcriptionFailed':
      return state.status === 'transcribing' ? fail(state, VOICE_ERRORS.transcription(event.reason)) : same;

    case 'noticeTimeout':
      return state.notice === null ? same : { state: { ...state, notice: null }, effects: [] };

    case 'dismiss':
      return state.status === 'error' ? { state: { ...state, status: 'idle', error: null }, effects: [] } : same;
  }
}
