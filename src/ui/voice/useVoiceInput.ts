/**
 * Voice input bound to the browser (SPEC §4.13, §9): runs the effects of voiceMachine against
 * speech recognition (en-US, continuous, interim results), the microphone and MediaRecorder
 * (mono, 16 kHz, 100 ms chunks, the first supported format of the preference list), and the
 * timers (1.5 s silence, 3 s notice); what the browser reports comes back as events.
 */
import { useEffect, useMemo, useState } from 'react';
import { useLatest } from '../hooks/useLatest';
import { AUDIO_RECORDING, SPEECH_FALLBACK_NOTICE_MS } from '../../model/ai';
import { SPEECH_LANGUAGE, VOICE_AUTO_SEND_SILENCE_MS } from '../../model/constants';
import type { TranscribeResult } from '../../worker/ai';
import { fileExtension, recordingFormat, recordingSupported, speechRecognitionClass, type SpeechRecognitionLike, type SpeechResultEventLike } from './browser';
import { initialVoiceState, voiceMachine, type VoiceEffect, type VoiceEvent, type VoiceMode, type VoiceState } from './voiceMachine';

export interface VoiceInputOptions {
  /** The words heard (or transcribed), to send as the user's message. */
  onSend(text: string): void;
  /** Uploads a recording for transcription (the engine's `transcribe`). */
  transcribe(audio: Blob, filename: string): Promise<TranscribeResult>;
}

export interface VoiceController {
  dispatch(event: VoiceEvent): void;
  /** Stops everything (recognition, microphone, timers) and goes idle. */
  dispose(): void;
}

const reasonOf = (error: unknown): string => {
  const e = error as { message?: string; name?: string; error?: { message?: string; name?: string } } | undefined;
  return e?.message || e?.error?.message || e?.name || e?.error?.name || 'unknown error';
};

/** The machine and its effects; `onState` sees each new state. */
export function createVoiceController(initial: VoiceState, options: () => VoiceInputOptions, onState: (state: VoiceState) => void): VoiceController {
  let state = initial;
  let recognition: SpeechRecognitionLike | null = null;
  let silenceTimer: ReturnType<typeof setTimeout> | undefined;
  let noticeTimer: ReturnType<typeof setTimeout> | undefined;
  /** The current recording; bumped when one is discarded, so late callbacks of an old one do nothing. */
  let take = 0;
  let recorder: MediaRecorder | null = null;
  let stream: MediaStream | null = null;
  /** Stop was asked before the microphone was granted. */
  let stopEarly = false;

  const dispatch = (event: VoiceEvent) => {
    const step = voiceMachine(state, event);
    if (step.state === state && step.effects.length === 0) return;
    state = step.state;
    onState(state);
    for (const effect of step.effects) run(effect);
  };

  const releaseMicrophone = (s: MediaStream | null) => s?.getTracks().forEach((track) => track.stop());

  function startRecognition() {
    const Recognition = speechRecognitionClass();
    if (!Recognition) return dispatch({ type: 'startFailed' });
    const r = new Recognition();
    r.lang = SPEECH_LANGUAGE;
    r.continuous = true;
    r.interimResults = true;
    r.onresult = (event: SpeechResultEventLike) => {
      if (recognition !== r) return;
      let final = '';
      let interim = '';
      for (let i = event.resultIndex; i < event.results.length; i++) {
        const result = event.results[i]!;
        const text = result[0]?.transcript ?? '';
        if (result.isFinal) final += text;
        else interim += text;
      }
      dispatch({ type: 'result', final, interim });
    };
    r.onerror = (event) => {
      if (recognition === r) dispatch({ type: 'speechError', code: event.error });
    };
    r.onend = () => {
      if (recognition !== r) return;
      recognition = null;
      dispatch({ type: 'end' });
    };
    recognition = r;
    try {
      r.start();
    } catch {
      recognition = null;
      dispatch({ type: 'startFailed' });
    }
  }

  function stopRecognition() {
    const r = recognition;
    recognition = null;
    if (!r) return;
    r.onresult = r.onerror = r.onend = null;
    try {
      r.abort();
    } catch {
      /* already stopped */
    }
  }

  function upload(blob: Blob, mimeType: string, current: number) {
    options()
      .transcribe(blob, `recording.${fileExtension(mimeType)}`)
      .then(
        (result) => {
          if (current !== take) return;
          dispatch(result.ok ? { type: 'transcribed', text: result.transcript } : { type: 'transcriptionFailed', reason: result.error });
        },
        (error: unknown) => {
          if (current === take) dispatch({ type: 'transcriptionFailed', reason: (error as Error)?.message });
        },
      );
  }

  function startRecording() {
    const current = ++take;
    stopEarly = false;
    if (!recordingSupported()) return dispatch({ type: 'recordingError', phase: 'unsupported' });
    const mimeType = recordingFormat();
    if (!mimeType) return dispatch({ type: 'recordingError', phase: 'noFormat' });
    let media: Promise<MediaStream>;
    try {
      media = navigator.mediaDevices.getUserMedia({ audio: { channelCount: AUDIO_RECORDING.channelCount, sampleRate: AUDIO_RECORDING.sampleRate } });
    } catch (error) {
      return dispatch({ type: 'recordingError', phase: 'start', reason: reasonOf(error) });
    }
    media.then(
      (granted) => {
        if (current !== take) return releaseMicrophone(granted);
        if (stopEarly) {
          // Stopped before the microphone opened: nothing was recorded.
          releaseMicrophone(granted);
          return dispatch({ type: 'transcribed', text: '' });
        }
        stream = granted;
        const chunks: Blob[] = [];
        let r: MediaRecorder;
        try {
          r = new MediaRecorder(granted, { mimeType });
        } catch (error) {
          releaseMicrophone(granted);
          stream = null;
          return dispatch({ type: 'recordingError', phase: 'start', reason: reasonOf(error) });
        }
        r.ondataavailable = (event) => {
          if (event.data && event.data.size > 0) chunks.push(event.data);
        };
        r.onerror = (event) => {
          if (current === take) dispatch({ type: 'recordingError', phase: 'record', reason: reasonOf(event) });
        };
        r.onstop = () => {
          releaseMicrophone(granted);
          if (stream === granted) stream = null;
          if (recorder === r) recorder = null;
          if (current === take && state.status === 'transcribing') upload(new Blob(chunks, { type: mimeType }), mimeType, current);
        };
        recorder = r;
        try {
          r.start(AUDIO_RECORDING.timesliceMs);
        } catch (error) {
          recorder = null;
          releaseMicrophone(granted);
          stream = null;
          dispatch({ type: 'recordingError', phase: 'start', reason: reasonOf(error) });
        }
      },
      (error: unknown) => {
        if (current === take) dispatch({ type: 'recordingError', phase: 'start', reason: reasonOf(error) });
      },
    );
  }

  function stopRecording() {
    if (recorder && recorder.state !== 'inactive') recorder.stop();
    else if (!recorder) stopEarly = true;
  }

  function discardRecording() {
    take += 1;
    const r = recorder;
    recorder = null;
    if (r && r.state !== 'inactive') {
      try {
        r.stop();
      } catch {
        /* already stopped */
      }
    }
    releaseMicrophone(stream);
    stream = null;
  }

  function run(effect: VoiceEffect) {
    switch (effect.type) {
      case 'startRecognition':
        return startRecognition();
      case 'stopRecognition':
        return stopRecognition();
      case 'startRecording':
        return startRecording();
      case 'stopRecording':
        return stopRecording();
      case 'discardRecording':
        return discardRecording();
      case 'armSilence':
        clearTimeout(silenceTimer);
        silenceTimer = setTimeout(() => dispatch({ type: 'silence' }), VOICE_AUTO_SEND_SILENCE_MS);
        return;
      case 'disarmSilence':
        clearTimeout(silenceTimer);
        return;
      case 'clearNoticeLater':
        clearTimeout(noticeTimer);
        noticeTimer = setTimeout(() => dispatch({ type: 'noticeTimeout' }), SPEECH_FALLBACK_NOTICE_MS);
        return;
      case 'send':
        options().onSend(effect.text);
        return;
    }
  }

  return {
    dispatch,
    dispose() {
      dispatch({ type: 'cancel' });
      clearTimeout(silenceTimer);
      clearTimeout(noticeTimer);
      stopRecognition();
      discardRecording();
    },
  };
}

export interface VoiceInput {
  state: VoiceState;
  start(): void;
  stop(): void;
  cancel(): void;
  send(): void;
  dismiss(): void;
  switchMode(mode: VoiceMode): void;
  setAutoSend(on: boolean): void;
}

/** Voice input for a component's lifetime: unmounting stops listening and recording. */
export function useVoiceInput(options: VoiceInputOptions): VoiceInput {
  const latest = useLatest(options);
  const [state, setState] = useState<VoiceState>(() => initialVoiceState({ speech: speechRecognitionClass() !== undefined, recording: recordingSupported() }));
  const [controller] = useState(() => createVoiceController(state, () => latest.current, setState));
  useEffect(() => () => controller.dispose(), [controller]);
  // The same functions for the component's life (an effect may depend on them).
  const actions = useMemo((): Omit<VoiceInput, 'state'> => {
    const { dispatch } = controller;
    return {
      start: () => dispatch({ type: 'start' }),
      stop: () => dispatch({ type: 'stop' }),
      cancel: () => dispatch({ type: 'cancel' }),
      send: () => dispatch({ type: 'send' }),
      dismiss: () => dispatch({ type: 'dismiss' }),
      switchMode: (mode) => dispatch({ type: 'switchMode', mode }),
      setAutoSend: (on) => dispatch({ type: 'setAutoSend', on }),
    };
  }, [controller]);
  return { state, ...actions };
}
