import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { AgentState } from '../../../contract/agent.ts';
import { answerBody, takeBackBody, useAgentMessage } from '../../api/agent/agent-message.ts';
import { useInterruptAgent } from '../../api/agent/interrupt.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import type { ChatItem, ChatModel, QuestionItem, ToolItem } from './chat-model.ts';

export type AgentActivity = 'connecting' | 'working' | 'waiting' | 'idle' | 'ended';

/** What the agent is doing: the session's events first (they are fresher), else its state. */
export function agentActivity(model: ChatModel, state: AgentState | undefined, sessionEnded: boolean): AgentActivity {
  if (sessionEnded || model.ended || state?.status === 'ended') return 'ended';
  if (model.openQuestion || state?.status === 'waiting_for_answer') return 'waiting';
  const running = model.running ?? (state ? state.status === 'working' : undefined);
  if (running === undefined) return 'connecting';
  return running ? 'working' : 'idle';
}

const ACTIVITY_WORDS: Record<AgentActivity, string> = {
  connecting: 'Connecting to the agent…',
  working: 'The agent is working…',
  waiting: 'Waiting for you: the agent asked a question.',
  idle: 'Idle: the agent waits for your next message.',
  ended: 'The session has ended; the agent takes no more messages.',
};

function ToolLine({ item }: { item: ToolItem }) {
  const id = useId();
  const mark = item.status === 'ok' ? '✓' : item.status === 'error' ? '✗' : '…';
  const words = item.status === 'ok' ? 'succeeded' : item.status === 'error' ? 'failed' : 'running';
  return (
    <details className={`agent-tool ${item.status}`}>
      <summary>
        <code>{item.name}</code>
        {item.target && <span className="agent-tool-target"> ‘{item.target}’</span>}{' '}
        <span className="agent-tool-mark" aria-hidden="true">
          {mark}
        </span>
        <span className="visually-hidden">{words}</span>
        {item.status === 'error' && item.result && <span className="agent-tool-error"> {item.result}</span>}
      </summary>
      {/* Long lines scroll sideways: each block takes the keyboard's focus, so it can be scrolled without a mouse. */}
      <div className="agent-tool-detail">
        <p className="label" id={`${id}-args`}>
          Arguments
        </p>
        <pre className="code-scroll" tabIndex={0} aria-labelledby={`${id}-args`}>
          {JSON.stringify(item.args, null, 2)}
        </pre>
        <p className="label" id={`${id}-result`}>
          Result
        </p>
        <pre className="code-scroll" tabIndex={0} aria-labelledby={`${id}-result`}>
          {item.result ?? 'No answer yet.'}
        </pre>
      </div>
    </details>
  );
}

function QuestionCard({
  item,
  busy,
  sent,
  onAnswer,
}: {
  item: QuestionItem;
  busy: boolean;
  sent: boolean;
  onAnswer(answers: Record<string, string>): void;
}) {
  const id = useId();
  const [texts, setTexts] = useState<string[]>(() => item.questions.map(() => ''));
  const closed = item.answered || sent;
  const questions = item.questions.length ? item.questions : [{ question: item.text, options: [] }];
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const answers = Object.fromEntries(
      texts.flatMap((t, i) => (t.trim() ? [[String(i), t.trim()] as [string, string]] : [])),
    );
    if (Object.keys(answers).length) onAnswer(answers);
  };
  return (
    <form className="agent-question" onSubmit={submit} aria-labelledby={`${id}-q0`}>
      <p className="agent-who">Agent asks</p>
      {questions.map((q, i) => (
        <div key={i} className="agent-question-one">
          <p id={`${id}-q${i}`}>
            <strong>{q.question}</strong>
          </p>
          {q.options.length > 0 && (
            <div className="row" role="group" aria-label="Answers to choose from">
              {q.options.map((label) => (
                <button
                  key={label}
                  type="button"
                  className="secondary small"
                  disabled={closed || busy}
                  onClick={() => onAnswer({ [String(i)]: label })}
                >
                  {label}
                </button>
              ))}
            </div>
          )}
          {!closed && (
            <label className="agent-answer">
              <span>{q.options.length ? 'Or answer in your words' : 'Your answer'}</span>
              <input
                value={texts[i] ?? ''}
                onChange={(e) => setTexts((t) => t.map((v, j) => (j === i ? e.target.value : v)))}
                aria-describedby={`${id}-q${i}`}
                autoComplete="off"
              />
            </label>
          )}
        </div>
      ))}
      {closed ? (
        <p className="hint">Answered.</p>
      ) : (
        <button type="submit" className="small" disabled={busy || texts.every((t) => !t.trim())}>
          Send answer
        </button>
      )}
    </form>
  );
}

function ChatLine({
  item,
  answering,
  sentAnswers,
  onAnswer,
}: {
  item: ChatItem;
  answering: boolean;
  sentAnswers: ReadonlySet<string>;
  onAnswer(toolUseId: string, answers: Record<string, string>): void;
}) {
  switch (item.kind) {
    case 'user':
      return (
        <li className="agent-msg user">
          <p className="agent-who">You</p>
          <p className="agent-text">{item.text}</p>
        </li>
      );
    case 'agent':
      return (
        <li className="agent-msg agent">
          <p className="agent-who">Agent</p>
          <p className="agent-text">{item.text}</p>
        </li>
      );
    case 'tool':
      return (
        <li className="agent-msg tool">
          <ToolLine item={item} />
        </li>
      );
    case 'question':
      return (
        <li className="agent-msg question">
          <QuestionCard
            item={item}
            busy={answering}
            sent={sentAnswers.has(item.toolUseId)}
            onAnswer={(answers) => onAnswer(item.toolUseId, answers)}
          />
        </li>
      );
    case 'error':
      return (
        <li className="agent-msg error">
          <p className="agent-text">
            <strong>Error:</strong> {item.message}
          </p>
        </li>
      );
    case 'done':
      return (
        <li className="agent-msg done">
          <p className="agent-text">
            <strong>Done:</strong> {item.message}
          </p>
        </li>
      );
  }
}

/** The last thing the agent said in full (or asked), for the polite live region. */
function announcement(model: ChatModel): string {
  for (let i = model.items.length - 1; i >= 0; i--) {
    const it = model.items[i]!;
    if (it.kind === 'agent') return it.complete || model.running === false ? `Agent: ${it.text}` : '';
    if (it.kind === 'question') return `Agent asks: ${it.questions.map((q) => q.question).join(' ') || it.text}`;
    if (it.kind === 'error') return `Error: ${it.message}`;
    if (it.kind === 'done') return `Done: ${it.message}`;
    if (it.kind === 'user') return '';
  }
  return '';
}

/** The conversation with the agent, the queue, Stop, and the composer. */
export function AgentChat({
  sessionId,
  model,
  state,
  activity,
  streamError,
  focusComposer = false,
}: {
  sessionId: string;
  model: ChatModel;
  state: AgentState | undefined;
  activity: AgentActivity;
  streamError: unknown;
  /** Put the cursor in the composer at once (the page was opened by starting the agent). */
  focusComposer?: boolean;
}) {
  const message = useAgentMessage(sessionId);
  const answer = useAgentMessage(sessionId);
  const takeBack = useAgentMessage(sessionId);
  const stop = useInterruptAgent(sessionId);
  const [draft, setDraft] = useState('');
  const [sentAnswers, setSentAnswers] = useState<ReadonlySet<string>>(new Set());
  const composer = useRef<HTMLTextAreaElement>(null);
  const list = useRef<HTMLOListElement>(null);
  const ended = activity === 'ended';
  const last = model.items.at(-1);
  const lastSize = last ? `${model.items.length}:${last.kind === 'agent' ? last.text.length : 0}` : '0';

  // Follow the conversation as it grows, unless the person scrolled up to read.
  const following = useRef(true);
  useEffect(() => {
    const el = list.current;
    if (el && following.current) el.scrollTop = el.scrollHeight;
  }, [lastSize]);
  // …and when the log changes size (a narrower window wraps its lines taller), stay at its end.
  useEffect(() => {
    const el = list.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (following.current) el.scrollTop = el.scrollHeight;
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (focusComposer) composer.current?.focus({ preventScroll: true });
  }, [focusComposer]);

  const send = () => {
    const text = draft.trim();
    if (!text || ended || message.isPending) return;
    message.mutate(
      { message: text },
      {
        onSuccess: () => setDraft((d) => (d.trim() === text ? '' : d)),
      },
    );
    composer.current?.focus();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };
  const onAnswer = (toolUseId: string, answers: Record<string, string>) =>
    answer.mutate(answerBody(toolUseId, answers), {
      onSuccess: () => {
        setSentAnswers((s) => new Set([...s, toolUseId]));
        composer.current?.focus();
      },
    });
  const queued = state?.queued ?? [];

  return (
    <section className="card agent-chat" aria-labelledby="agent-chat-title">
      <div className="row spread">
        <h2 id="agent-chat-title">Chat</h2>
        {/* While the agent works, and while it waits on its own question within a turn. */}
        {!ended && (activity === 'working' || model.running === true) && (
          <button
            type="button"
            className="danger small"
            disabled={stop.isPending}
            onClick={() =>
              // The button goes once the agent stops: the cursor goes on to the composer, not to the page's start.
              stop.mutate(undefined, { onSuccess: () => composer.current?.focus() })
            }
          >
            {stop.isPending ? 'Stopping…' : 'Stop'}
          </button>
        )}
      </div>
      <p className={`agent-status ${activity}`} role="status">
        {ACTIVITY_WORDS[activity]}
        {state?.model && <span className="hint"> · {state.model}</span>}
      </p>
      {stop.isError && <ErrorNotice error={stop.error} title="The agent was not stopped." />}
      <ol
        className="agent-log"
        ref={list}
        aria-label="Conversation"
        tabIndex={0}
        onScroll={(e) => {
          const el = e.currentTarget;
          following.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
        }}
      >
        {model.items.length === 0 && (
          <li className="hint">{ended ? 'Nothing was said in this session.' : 'Say what the agent should do.'}</li>
        )}
        {model.items.map((item) => (
          <ChatLine
            key={item.key}
            item={item}
            answering={answer.isPending}
            sentAnswers={sentAnswers}
            onAnswer={onAnswer}
          />
        ))}
      </ol>
      <div className="visually-hidden" aria-live="polite">
        {announcement(model)}
      </div>
      {streamError !== null && streamError !== undefined && (
        <ErrorNotice error={streamError} title="The conversation's events were interrupted; reading them again…" />
      )}
      {answer.isError && <ErrorNotice error={answer.error} title="The answer was not sent." />}
      {queued.length > 0 && (
        <section className="agent-queue" aria-labelledby="agent-queue-title">
          <h3 id="agent-queue-title">Waiting for the agent ({queued.length})</h3>
          <ul>
            {queued.map((text, i) => (
              <li key={`${i}:${text}`} className="row spread">
                <span className="agent-text">{text}</span>
                <button
                  type="button"
                  className="secondary small"
                  disabled={takeBack.isPending}
                  onClick={() => takeBack.mutate(takeBackBody(text))}
                >
                  Take back<span className="visually-hidden">: {text}</span>
                </button>
              </li>
            ))}
          </ul>
          {takeBack.isError && <ErrorNotice error={takeBack.error} title="The message was not taken back." />}
        </section>
      )}
      <form
        className="agent-composer"
        onSubmit={(e) => {
          e.preventDefault();
          send();
        }}
      >
        <label htmlFor="agent-composer-text">Message to the agent</label>
        <textarea
          id="agent-composer-text"
          ref={composer}
          rows={3}
          value={draft}
          disabled={ended}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
          aria-describedby="agent-composer-hint"
          placeholder={ended ? undefined : 'Click the “More information” link'}
        />
        <p className="hint" id="agent-composer-hint">
          {ended
            ? 'The session has ended.'
            : 'Enter sends, Shift+Enter starts a new line. Messages sent while the agent works wait in order.'}
        </p>
        {message.isError && <ErrorNotice error={message.error} title="The message was not sent." />}
        <button type="submit" disabled={ended || message.isPending || !draft.trim()}>
          {message.isPending ? 'Sending…' : 'Send'}
        </button>
      </form>
    </section>
  );
}
