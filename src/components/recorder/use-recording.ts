import { useState } from 'react';
import { useRecorder, useRecorderControl } from '../../api/recorder/recorder.ts';
import { keptRecording, lastKept, type PlaceholderChoice } from './kept-recording.ts';
import type { TypedChoice } from './typed-values.ts';

/**
 * One recording on a live session, as a page shows it: the steps so far (read again while it
 * records), the ones Undo took out, the placeholders' names as the person chose them, and the
 * typed values they made variables.
 * `started`: the recorder was already started (by the page that opened the session for it).
 */
export function useRecording(sessionId: string, started = false) {
  const [reading, setReading] = useState(started);
  const [removed, setRemoved] = useState<ReadonlySet<number>>(new Set());
  const [names, setNames] = useState<Record<string, PlaceholderChoice>>({});
  const [typed, setTyped] = useState<Record<number, TypedChoice>>({});
  const recorder = useRecorder(sessionId, reading);
  const control = useRecorderControl(sessionId);
  const state = recorder.data ?? control.start.data;
  const steps = state?.flow.steps ?? [];
  const undoable = lastKept(steps.length, removed);
  return {
    state,
    recording: Boolean(state?.recording),
    steps,
    removed,
    names,
    choose: (placeholder: string, choice: PlaceholderChoice) => setNames((n) => ({ ...n, [placeholder]: choice })),
    typed,
    chooseTyped: (index: number, choice: TypedChoice) => setTyped((t) => ({ ...t, [index]: choice })),
    undoable,
    undo: () => undoable !== undefined && setRemoved((r) => new Set([...r, undoable])),
    start: () =>
      control.start.mutate(undefined, {
        onSuccess: () => {
          setRemoved(new Set());
          setTyped({});
          setReading(true);
        },
      }),
    /**
     * Stop the recorder: the steps kept (less any `leaveOut` by number), placeholders written as
     * chosen, typed values made variables, and the variables they need.
     */
    stop: async (leaveOut: readonly number[] = []) => {
      const stopped = await control.stop.mutateAsync();
      return { ...keptRecording(stopped, { removed: new Set([...removed, ...leaveOut]), names, typed }), stopped };
    },
    control,
  };
}

export type Recording = ReturnType<typeof useRecording>;
