/**
 * Voice input against fake browser interfaces (SPEC §4.13, §8 'Voice', §9): SpeechRecognition,
 * navigator.mediaDevices.getUserMedia, MediaRecorder and speechSynthesis are replaced on
 * window and navigator; the component and the Ask AI page run unchanged on top of them.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { Route, Switch } from 'wouter';
import { TestRouter } from './router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { VOICE_ERRORS } from '../../src/model/ai';
import { VoiceInput } from '../../src/ui/components/ask/VoiceInput';
import { AskAiPage } from '../../src/ui/screens/AskAiPage';
import type { TranscribeResult } from '../../src/worker/ai';
import { createFakeEngine } from './fakeEngine';

/* ---- fake browser interfaces ---- */

class FakeRecognition {
  static instances: FakeRecognition[] = [];
  static failStart = false;
  lang = '';
  continuous = false;
  interimResults = false;
  onresult: ((event: unknown) => void) | null = null;
  onerror: ((event: { error: string }) => void) | null = null;
  onend: (() => void) | null = null;
  started = false;
  aborted = false;
  constructor() {
    FakeRecognition.instances.push(this);
  }
  start() {
    if (FakeRecognition.failStart) throw new Error('already started');
    this.started = true;
  }
  stop() {
    this.aborted = true;
  }
  abort() {
    this.aborted = true;
  }
  /** One result event: a final piece and/or an interim one. */
  hear(final: string, interim = '') {
    const results = [
      ...(final ? [Object.assign([{ transcript: final }], { isFinal: true })] : []),
      ...(interim ? [Object.assign([{ transcript: interim }], { isFinal: false })] : []),
    ];
    act(() => this.onresult?.({ resultIndex: 0, results }));
  }
  fail(code: string) {
    act(() => {
      this.onerror?.({ error: code });
      this.onend?.();
    });
  }
}
const recognition = () => FakeRecognition.instances.at(-1)!;

class FakeRecorder {
  static instances: FakeRecorder[] = [];
  static supported: string[] = ['audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus', 'audio/mp4', 'audio/wav'];
  static isTypeSupported(type: string) {
    return FakeRecorder.supported.includes(type);
  }
  state: 'inactive' | 'recording' = 'inactive';
  timeslice: number | undefined;
  ondataavailable: ((event: { data: Blob }) => void) | null = null;
  onstop: (() => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  constructor(
    readonly stream: unknown,
    readonly options: { mimeType: string },
  ) {
    FakeRecorder.instances.push(this);
  }
  start(timeslice?: number) {
    this.state = 'recording';
    this.timeslice = timeslice;
    this.ondataavailable?.({ data: new Blob(['chunk-1'], { type: this.options.mimeType }) });
  }
  stop() {
    this.state = 'inactive';
    this.ondataavailable?.({ data: new Blob(['chunk-2'], { type: this.options.mimeType }) });
    this.onstop?.();
  }
}
const recorder = () => FakeRecorder.instances.at(-1)!;

const track = { stop: vi.fn() };
const getUserMedia = vi.fn(async (_constraints: MediaStreamConstraints) => ({ getTracks: () => [track] }) as unknown as MediaStream);

const synth = { speak: vi.fn(), cancel: vi.fn() };
class FakeUtterance {
  lang = '';
  rate = 0;
  pitch = 0;
  volume = 0;
  constructor(readonly text: string) {}
}

function installSpeech() {
  (window as unknown as Record<string, unknown>).webkitSpeechRecognition = FakeRecognition;
}
function installRecording() {
  vi.stubGlobal('MediaRecorder', FakeRecorder);
  Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia } });
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeRecognition.instances = [];
  FakeRecognition.failStart = false;
  FakeRecorder.instances = [];
  FakeRecorder.supported = ['audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus', 'audio/mp4', 'audio/wav'];
  track.stop.mockClear();
  getUserMedia.mockClear();
  synth.speak.mockClear();
  synth.cancel.mockClear();
  installSpeech();
  installRecording();
  vi.stubGlobal('speechSynthesis', synth);
  vi.stubGlobal('SpeechSynthesisUtterance', FakeUtterance);
});

afterEach(() => {
  vi.useRealTimers();
  delete (window as unknown as Record<string, unknown>).webkitSpeechRecognition;
  delete (window as unknown as Record<string, unknown>).SpeechRecognition;
  delete (navigator as unknown as Record<string, unknown>).mediaDevices;
});

/** Lets timers run and promises settle. */
const wait = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms));

type Transcribe = (audio: Blob, filename: string) => Promise<TranscribeResult>;

function renderVoice(transcribe = vi.fn<Transcribe>(async () => ({ ok: true, transcript: '' }))) {
  const onSend = vi.fn();
  const view = render(<VoiceInput onSend={onSend} transcribe={transcribe} />);
  return { onSend, transcribe, view, panel: screen.getByRole('region', { name: 'Voice input' }) };
}

/** Speech fails with a network error: the input switches to recording. */
async function switchToRecording() {
  recognition().fail('network');
  await wait();
}

describe('speech recognition (SPEC §4.13)', () => {
  it('listens at once in en-US, continuously, with interim results', () => {
    renderVoice();
    const r = recognition();
    expect(r).toMatchObject({ lang: 'en-US', continuous: true, interimResults: true, started: true });
    expect(screen.getByText('Listening...')).toBeTruthy();
  });

  it('uses window.SpeechRecognition when there is one', () => {
    delete (window as unknown as Record<string, unknown>).webkitSpeechRecognition;
    (window as unknown as Record<string, unknown>).SpeechRecognition = FakeRecognition;
    renderVoice();
    expect(recognition().started).toBe(true);
  });

  it('accumulates final speech, shows interim words, and sends after 1.5 s of silence', async () => {
    const { onSend, panel } = renderVoice();
    recognition().hear('what is', 'urg');
    expect(panel.textContent).toContain('what is urg');
    recognition().hear('urgent');
    await wait(1_000);
    recognition().hear('right now');
    // The silence timer restarted with the last words.
    await wait(1_499);
    expect(onSend).not.toHaveBeenCalled();
    await wait(1);
    expect(onSend).toHaveBeenCalledExactlyOnceWith('what is urgent right now');
    expect(recognition().aborted).toBe(true);
    expect(screen.getByRole('button', { name: 'Start listening' })).toBeTruthy();
  });

  it('without auto-send, silence sends nothing and Stop sends', async () => {
    const { onSend } = renderVoice();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Send after a pause' }));
    recognition().hear('who should I reply to first');
    await wait(5_000);
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(onSend).toHaveBeenCalledExactlyOnceWith('who should I reply to first');
  });

  it('Cancel discards what was heard', async () => {
    const { onSend } = renderVoice();
    recognition().hear('never mind');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await wait(3_000);
    expect(onSend).not.toHaveBeenCalled();
    expect(recognition().aborted).toBe(true);
    expect(screen.queryByText('never mind')).toBeNull();
  });

  it.each(['aborted', 'no-speech'])('%s shows nothing', async (code) => {
    renderVoice();
    recognition().fail(code);
    await wait();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText(/Speech recognition error/)).toBeNull();
  });

  it('another error shows "Speech recognition error: {code}" with a dismiss', async () => {
    renderVoice();
    recognition().fail('not-allowed');
    await wait();
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Speech recognition error: not-allowed');
    fireEvent.click(within(alert).getByRole('button', { name: 'Dismiss voice error' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a failing start shows "Failed to start speech recognition"', () => {
    FakeRecognition.failStart = true;
    renderVoice();
    expect(screen.getByRole('alert').textContent).toContain(VOICE_ERRORS.startFailed);
  });

  it('a browser with neither speech recognition nor recording says which browsers to use', () => {
    delete (window as unknown as Record<string, unknown>).webkitSpeechRecognition;
    delete (navigator as unknown as Record<string, unknown>).mediaDevices;
    renderVoice();
    expect(screen.getByRole('alert').textContent).toContain('Speech recognition is not supported in this browser. Please use Chrome, Edge, or Safari.');
  });

  it('stops listening and releases everything when unmounted', () => {
    const { view } = renderVoice();
    view.unmount();
    expect(recognition().aborted).toBe(true);
  });
});

describe('falling back to recording (SPEC §4.13, §9)', () => {
  it.each(['network', 'service-not-allowed'])('%s switches to recording and says so for 3 s', async (code) => {
    renderVoice();
    recognition().fail(code);
    await wait();
    expect(screen.getByRole('status').textContent).toBe('Browser speech service unavailable. Switching to audio recording mode...');
    expect(getUserMedia).toHaveBeenCalledExactlyOnceWith({ audio: { channelCount: 1, sampleRate: 16000 } });
    expect(recorder().timeslice).toBe(100);
    await wait(2_999);
    expect(screen.queryByText(VOICE_ERRORS.switching)).not.toBeNull();
    await wait(1);
    expect(screen.queryByText(VOICE_ERRORS.switching)).toBeNull();
  });

  it('records the first format of the preference the browser supports', async () => {
    FakeRecorder.supported = ['audio/wav', 'audio/ogg;codecs=opus'];
    renderVoice();
    await switchToRecording();
    expect(recorder().options.mimeType).toBe('audio/ogg;codecs=opus');
  });

  it('Stop uploads the recording, shows "Transcribing audio...", and sends the transcript', async () => {
    FakeRecorder.supported = ['audio/ogg;codecs=opus'];
    let answer!: (result: TranscribeResult) => void;
    const transcribe = vi.fn<Transcribe>(() => new Promise<TranscribeResult>((resolve) => (answer = resolve)));
    const { onSend } = renderVoice(transcribe);
    await switchToRecording();
    fireEvent.click(screen.getByRole('button', { name: 'Stop and send' }));
    expect(screen.getByText('Transcribing audio...')).toBeTruthy();
    expect(transcribe).toHaveBeenCalledOnce();
    const [audio, filename] = transcribe.mock.calls[0]!;
    expect(filename).toBe('recording.ogg');
    expect(audio.type).toBe('audio/ogg;codecs=opus');
    expect(await audio.text()).toBe('chunk-1chunk-2');
    expect(track.stop).toHaveBeenCalled();
    await act(async () => answer({ ok: true, transcript: 'summarize urgent messages' }));
    expect(onSend).toHaveBeenCalledExactlyOnceWith('summarize urgent messages');
    expect(screen.queryByText('Transcribing audio...')).toBeNull();
  });

  it('a failed transcription shows "Transcription failed: {reason}"', async () => {
    const { onSend } = renderVoice(vi.fn<Transcribe>(async () => ({ ok: false, error: 'audio too short' })));
    await switchToRecording();
    fireEvent.click(screen.getByRole('button', { name: 'Stop and send' }));
    await wait();
    expect(screen.getByRole('alert').textContent).toContain('Transcription failed: audio too short');
    expect(onSend).not.toHaveBeenCalled();
  });

  it('Cancel discards the recording: nothing is uploaded and the microphone is released', async () => {
    const { onSend, transcribe } = renderVoice();
    await switchToRecording();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await wait();
    expect(transcribe).not.toHaveBeenCalled();
    expect(onSend).not.toHaveBeenCalled();
    expect(track.stop).toHaveBeenCalled();
    expect(recorder().state).toBe('inactive');
  });

  it('the user may switch back to speech recognition', async () => {
    renderVoice();
    await switchToRecording();
    fireEvent.click(screen.getByRole('button', { name: 'Use speech recognition' }));
    expect(recorder().state).toBe('inactive');
    fireEvent.click(screen.getByRole('button', { name: 'Start listening' }));
    expect(FakeRecognition.instances).toHaveLength(2);
    expect(recognition().started).toBe(true);
  });

  it('without speech recognition, switching back says "Speech recognition not supported"', async () => {
    delete (window as unknown as Record<string, unknown>).webkitSpeechRecognition;
    renderVoice();
    await wait();
    // No speech recognition: the input records from the start.
    expect(getUserMedia).toHaveBeenCalledOnce();
    fireEvent.click(screen.getByRole('button', { name: 'Use speech recognition' }));
    expect(screen.getByRole('alert').textContent).toContain('Speech recognition not supported');
  });

  it('no supported format: "No supported audio format found", and no microphone asked', async () => {
    FakeRecorder.supported = [];
    renderVoice();
    await switchToRecording();
    expect(screen.getByRole('alert').textContent).toContain('No supported audio format found');
    expect(getUserMedia).not.toHaveBeenCalled();
  });

  it('no MediaRecorder: "Audio recording not supported in this browser"', async () => {
    vi.stubGlobal('MediaRecorder', undefined);
    renderVoice();
    await switchToRecording();
    expect(screen.getByRole('alert').textContent).toContain('Audio recording not supported in this browser');
  });

  it('the microphone refused: "Failed to start recording: {reason}"', async () => {
    getUserMedia.mockRejectedValueOnce(Object.assign(new Error('Permission denied'), { name: 'NotAllowedError' }));
    renderVoice();
    await switchToRecording();
    expect(screen.getByRole('alert').textContent).toContain('Failed to start recording: Permission denied');
  });

  it('the recorder failing: "Recording failed: {reason}"', async () => {
    renderVoice();
    await switchToRecording();
    act(() => recorder().onerror?.({ error: { name: 'UnknownError', message: 'device lost' } }));
    expect(screen.getByRole('alert').textContent).toContain('Recording failed: device lost');
    expect(track.stop).toHaveBeenCalled();
  });
});

describe('voice mode on the Ask AI page (SPEC §2.9)', () => {
  function renderPage() {
    const fake = createFakeEngine();
    fake.api.catchupStart.mockResolvedValue({
      success: true,
      sessionId: 's1',
      message: 'You have 2 urgent conversations.',
      stats: { urgent: 2, can_wait: 0, fyi: 0, total: 2, cleared: 0 },
    });
    fake.api.catchupChat.mockResolvedValue({ success: true, message: '• Deploy failed [1]\n• Incident open' });
    render(
      <TestRouter path={'/ask-ai'}>
        <Switch>
          <Route path="/ask-ai">{<AskAiPage />}</Route>
        </Switch>
      </TestRouter>,
    );
    return fake;
  }

  it('Cmd/Ctrl+Shift+V starts the catch-up by voice; what is said is sent, and answers are read aloud', async () => {
    const fake = renderPage();
    await wait();
    fireEvent.keyDown(window, { key: 'V', ctrlKey: true, shiftKey: true });
    await wait();
    expect(fake.api.catchupStart).toHaveBeenCalledOnce();
    expect(screen.getByRole('button', { name: 'Voice mode' }).getAttribute('aria-pressed')).toBe('true');
    // The greeting is read aloud, en-US, rate, pitch and volume 1.
    expect(synth.speak).toHaveBeenCalledOnce();
    expect(synth.speak.mock.calls[0]![0]).toMatchObject({ text: 'You have 2 urgent conversations.', lang: 'en-US', rate: 1, pitch: 1, volume: 1 });

    recognition().hear('summarize urgent messages');
    await wait(1_500);
    expect(fake.api.catchupChat).toHaveBeenCalledExactlyOnceWith('s1', 'summarize urgent messages');
    await wait();
    expect(synth.speak).toHaveBeenCalledTimes(2);
    // Read without the bullet marks and the [n] references.
    expect(synth.speak.mock.calls[1]![0]).toMatchObject({ text: 'Deploy failed\nIncident open' });
  });

  it('leaving stops the speech and ends the session', async () => {
    const fake = renderPage();
    await wait();
    fireEvent.keyDown(window, { key: 'v', metaKey: true, shiftKey: true });
    await wait();
    synth.cancel.mockClear();
    fireEvent.keyDown(window, { key: 'Escape' });
    await wait();
    expect(synth.cancel).toHaveBeenCalled();
    expect(fake.api.catchupEnd).toHaveBeenCalledExactlyOnceWith('s1');
    expect(recognition().aborted).toBe(true);
    expect(screen.getByRole('heading', { name: 'Ask Sift AI anything' })).toBeTruthy();
  });

  it('turning voice mode off goes back to the composer and stops speaking', async () => {
    renderPage();
    await wait();
    fireEvent.keyDown(window, { key: 'V', ctrlKey: true, shiftKey: true });
    await wait();
    synth.cancel.mockClear();
    fireEvent.click(screen.getByRole('button', { name: 'Voice mode' }));
    expect(synth.cancel).toHaveBeenCalled();
    expect(screen.queryByRole('region', { name: 'Voice input' })).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Message Sift AI' })).toBeTruthy();
  });
});
