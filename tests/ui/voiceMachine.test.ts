/** Table tests of the voice input state machine (SPEC §4.13, §8 'Voice'). */
import { describe, expect, it } from 'vitest';
import { VOICE_ERRORS } from '../../src/model/ai';
import { initialVoiceState, voiceMachine, type VoiceEffect, type VoiceEvent, type VoiceState } from '../../src/ui/voice/voiceMachine';

const BOTH = { speech: true, recording: true };
const idle = (over: Partial<VoiceState> = {}): VoiceState => ({ ...initialVoiceState(BOTH), ...over });
const listening = (over: Partial<VoiceState> = {}) => idle({ status: 'listening', ...over });
const recording = (over: Partial<VoiceState> = {}) => idle({ status: 'recording', mode: 'recording', ...over });
const transcribing = (over: Partial<VoiceState> = {}) => idle({ status: 'transcribing', mode: 'recording', ...over });

type Row = [name: string, from: VoiceState, event: VoiceEvent, to: Partial<VoiceState>, effects: VoiceEffect[]];

const rows: Row[] = [
  // start
  ['start listens in speech mode', idle(), { type: 'start' }, { status: 'listening' }, [{ type: 'startRecognition' }]],
  ['start records in recording mode', idle({ mode: 'recording' }), { type: 'start' }, { status: 'recording' }, [{ type: 'startRecording' }]],
  [
    'start again after an error clears it',
    idle({ status: 'error', error: 'x' }),
    { type: 'start' },
    { status: 'listening', error: null },
    [{ type: 'startRecognition' }],
  ],
  ['start while listening does nothing', listening(), { type: 'start' }, { status: 'listening' }, []],
  [
    'start without speech recognition or recording: the browser message',
    initialVoiceState({ speech: false, recording: false }),
    { type: 'start' },
    { status: 'error', error: VOICE_ERRORS.unsupportedBrowser },
    [],
  ],
  [
    'start in recording mode without recording support',
    idle({ mode: 'recording', support: { speech: true, recording: false } }),
    { type: 'start' },
    { status: 'error', error: VOICE_ERRORS.recordingUnsupported },
    [],
  ],

  // results and silence
  [
    'a final result is accumulated; auto-send arms the silence timer',
    listening({ transcript: 'hello' }),
    { type: 'result', final: ' there ', interim: '' },
    { transcript: 'hello there', interim: '' },
    [{ type: 'armSilence' }],
  ],
  [
    'an interim result is shown, not kept',
    listening({ transcript: 'hello' }),
    { type: 'result', final: '', interim: 'wor' },
    { transcript: 'hello', interim: 'wor' },
    [{ type: 'armSilence' }],
  ],
  ['without auto-send no timer is armed', listening({ autoSend: false }), { type: 'result', final: 'hi', interim: '' }, { transcript: 'hi' }, []],
  ['a result after listening ended is ignored', idle(), { type: 'result', final: 'late', interim: '' }, { transcript: '' }, []],
  [
    '1.5 s of silence sends what was heard and stops listening',
    listening({ transcript: 'what is urgent', interim: 'now' }),
    { type: 'silence' },
    { status: 'idle', transcript: '', interim: '' },
    [{ type: 'disarmSilence' }, { type: 'stopRecognition' }, { type: 'send', text: 'what is urgent now' }],
  ],
  ['silence with nothing heard keeps listening', listening(), { type: 'silence' }, { status: 'listening' }, []],
  [
    'silence without auto-send does nothing',
    listening({ autoSend: false, transcript: 'hi' }),
    { type: 'silence' },
    { status: 'listening', transcript: 'hi' },
    [],
  ],

  // stop, end, cancel, send
  [
    'stop while listening sends at once',
    listening({ transcript: 'hi' }),
    { type: 'stop' },
    { status: 'idle', transcript: '' },
    [{ type: 'disarmSilence' }, { type: 'stopRecognition' }, { type: 'send', text: 'hi' }],
  ],
  [
    'stop while listening with nothing heard sends nothing',
    listening(),
    { type: 'stop' },
    { status: 'idle' },
    [{ type: 'disarmSilence' }, { type: 'stopRecognition' }],
  ],
  [
    'recognition ending by itself sends with auto-send',
    listening({ transcript: 'hi' }),
    { type: 'end' },
    { status: 'idle', transcript: '' },
    [{ type: 'disarmSilence' }, { type: 'stopRecognition' }, { type: 'send', text: 'hi' }],
  ],
  [
    'recognition ending without auto-send keeps the words to send by hand',
    listening({ autoSend: false, transcript: 'hi' }),
    { type: 'end' },
    { status: 'idle', transcript: 'hi' },
    [{ type: 'disarmSilence' }, { type: 'stopRecognition' }],
  ],
  ['send sends the kept words', idle({ transcript: 'hi' }), { type: 'send' }, { transcript: '' }, [{ type: 'send', text: 'hi' }]],
  ['send with nothing kept does nothing', idle(), { type: 'send' }, {}, []],
  [
    'cancel while listening discards the words',
    listening({ transcript: 'hi', interim: 'x' }),
    { type: 'cancel' },
    { status: 'idle', transcript: '', interim: '' },
    [{ type: 'disarmSilence' }, { type: 'stopRecognition' }],
  ],
  ['cancel while recording discards the recording', recording(), { type: 'cancel' }, { status: 'idle' }, [{ type: 'discardRecording' }]],
  ['cancel while transcribing drops the answer to come', transcribing(), { type: 'cancel' }, { status: 'idle' }, []],

  // speech errors
  ['aborted is silent', listening(), { type: 'speechError', code: 'aborted' }, { status: 'listening', error: null }, []],
  ['no-speech is silent', listening(), { type: 'speechError', code: 'no-speech' }, { status: 'listening', error: null }, []],
  [
    'another code shows its text',
    listening(),
    { type: 'speechError', code: 'not-allowed' },
    { status: 'error', error: 'Speech recognition error: not-allowed' },
    [{ type: 'disarmSilence' }, { type: 'stopRecognition' }],
  ],
  ['start failing shows its text', listening(), { type: 'startFailed' }, { status: 'error', error: VOICE_ERRORS.startFailed }, [{ type: 'disarmSilence' }]],
  ...(['network', 'service-not-allowed', 'language-not-supported'] as const).map((code): Row => [
    `${code} switches to recording, with the notice for 3 s`,
    listening({ transcript: 'half' }),
    { type: 'speechError', code },
    { status: 'recording', mode: 'recording', notice: VOICE_ERRORS.switching, transcript: '' },
    [{ type: 'disarmSilence' }, { type: 'stopRecognition' }, { type: 'startRecording' }, { type: 'clearNoticeLater' }],
  ]),
  [
    'network without recording support: the notice and the recording error',
    listening({ support: { speech: true, recording: false } }),
    { type: 'speechError', code: 'network' },
    { status: 'error', mode: 'recording', notice: VOICE_ERRORS.switching, error: VOICE_ERRORS.recordingUnsupported },
    [{ type: 'disarmSilence' }, { type: 'stopRecognition' }, { type: 'clearNoticeLater' }],
  ],
  ['the notice clears', recording({ notice: VOICE_ERRORS.switching }), { type: 'noticeTimeout' }, { notice: null, status: 'recording' }, []],

  // switching modes
  ['the user switches back to speech', idle({ mode: 'recording' }), { type: 'switchMode', mode: 'speech' }, { mode: 'speech', status: 'idle' }, []],
  [
    'switching while recording discards it',
    recording(),
    { type: 'switchMode', mode: 'speech' },
    { mode: 'speech', status: 'idle' },
    [{ type: 'discardRecording' }],
  ],
  [
    'switching while listening stops it',
    listening({ transcript: 'x' }),
    { type: 'switchMode', mode: 'recording' },
    { mode: 'recording', status: 'idle', transcript: '' },
    [{ type: 'disarmSilence' }, { type: 'stopRecognition' }],
  ],
  [
    'switching to speech where there is none',
    idle({ mode: 'recording', support: { speech: false, recording: true } }),
    { type: 'switchMode', mode: 'speech' },
    { status: 'error', mode: 'recording', error: VOICE_ERRORS.unsupported },
    [],
  ],
  ['no switching while transcribing', transcribing(), { type: 'switchMode', mode: 'speech' }, { status: 'transcribing', mode: 'recording' }, []],
  ['auto-send off while listening disarms the timer', listening(), { type: 'setAutoSend', on: false }, { autoSend: false }, [{ type: 'disarmSilence' }]],
  ['auto-send on while listening arms it', listening({ autoSend: false }), { type: 'setAutoSend', on: true }, { autoSend: true }, [{ type: 'armSilence' }]],

  // recording and transcription
  ['stop while recording uploads', recording(), { type: 'stop' }, { status: 'transcribing' }, [{ type: 'stopRecording' }]],
  [
    'the transcript is sent',
    transcribing(),
    { type: 'transcribed', text: ' summarize urgent ' },
    { status: 'idle' },
    [{ type: 'send', text: 'summarize urgent' }],
  ],
  ['an empty transcript sends nothing', transcribing(), { type: 'transcribed', text: '  ' }, { status: 'idle' }, []],
  ['a transcript after cancel is dropped', idle({ mode: 'recording' }), { type: 'transcribed', text: 'late' }, { status: 'idle' }, []],
  [
    'transcription failure with a reason',
    transcribing(),
    { type: 'transcriptionFailed', reason: 'too short' },
    { status: 'error', error: 'Transcription failed: too short' },
    [],
  ],
  ['transcription failure without one', transcribing(), { type: 'transcriptionFailed' }, { status: 'error', error: 'Transcription failed' }, []],
  [
    'recording unsupported',
    recording(),
    { type: 'recordingError', phase: 'unsupported' },
    { status: 'error', error: VOICE_ERRORS.recordingUnsupported },
    [{ type: 'discardRecording' }],
  ],
  [
    'no audio format',
    recording(),
    { type: 'recordingError', phase: 'noFormat' },
    { status: 'error', error: 'No supported audio format found' },
    [{ type: 'discardRecording' }],
  ],
  [
    'the microphone refused',
    recording(),
    { type: 'recordingError', phase: 'start', reason: 'Permission denied' },
    { status: 'error', error: 'Failed to start recording: Permission denied' },
    [{ type: 'discardRecording' }],
  ],
  [
    'the recorder failing',
    recording(),
    { type: 'recordingError', phase: 'record', reason: 'device lost' },
    { status: 'error', error: 'Recording failed: device lost' },
    [{ type: 'discardRecording' }],
  ],
  ['dismiss clears the error', idle({ status: 'error', error: 'x' }), { type: 'dismiss' }, { status: 'idle', error: null }, []],
];

describe('voiceMachine', () => {
  it.each(rows)('%s', (_name, from, event, to, effects) => {
    const step = voiceMachine(from, event);
    expect(step.state).toEqual({ ...from, ...to });
    expect(step.effects).toEqual(effects);
  });

  it('starts in speech mode where the browser recognizes speech, else in recording mode', () => {
    expect(initialVoiceState(BOTH).mode).toBe('speech');
    expect(initialVoiceState({ speech: false, recording: true }).mode).toBe('recording');
    expect(initialVoiceState(BOTH)).toMatchObject({ status: 'idle', autoSend: true, transcript: '', error: null, notice: null });
  });

  it('a whole spoken turn: start, results, silence, send', () => {
    const events: VoiceEvent[] = [
      { type: 'start' },
      { type: 'result', final: '', interim: 'who' },
      { type: 'result', final: 'who should I', interim: '' },
      { type: 'result', final: 'reply to first', interim: '' },
      { type: 'silence' },
    ];
    let state = idle();
    const effects: VoiceEffect[] = [];
    for (const event of events) {
      const step = voiceMachine(state, event);
      state = step.state;
      effects.push(...step.effects);
    }
    expect(state.status).toBe('idle');
    expect(effects.filter((e) => e.type === 'send')).toEqual([{ type: 'send', text: 'who should I reply to first' }]);
  });
});
