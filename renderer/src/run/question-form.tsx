import { useEffect, useState } from 'react';
import type { AskField, Question } from '../../../core/model/human-input';
import { useAppStore } from '../store/app-store';

/**
 * The questions this flow's runs wait on, each an ask node's form answered
 * here; also those asked before the page was opened or reloaded.
 */
export function RunQuestions({ flowId }: { flowId: string }) {
  const questions = useAppStore((s) => s.questions);
  useEffect(() => void useAppStore.getState().loadQuestions(flowId), [flowId]);
  const mine = questions.filter((q) => q.flowId === flowId);
  if (mine.length === 0) return null;
  return (
    <>
      {mine.map((question) => (
        <QuestionForm key={`${question.runId}/${question.nodeId}`} question={question} />
      ))}
    </>
  );
}

/** Typed values from the form's texts: the host checks them against the fields again. */
function valueOf(field: AskField, text: string): unknown {
  if (field.type === 'boolean') return text === 'true';
  if ((field.type === 'number' || field.type === 'integer') && text.trim() !== '' && !Number.isNaN(Number(text))) {
    return Number(text);
  }
  return text;
}

function QuestionForm({ question }: { question: Question }) {
  const label = useAppStore((s) => s.flow?.nodes.find((n) => n.id === question.nodeId)?.label) || question.nodeId;
  const [texts, setTexts] = useState<Record<string, string>>(() =>
    Object.fromEntries(question.fields.filter((f) => f.type === 'boolean').map((f) => [f.name, 'false'])),
  );
  const [refusal, setRefusal] = useState<string>();
  const [sending, setSending] = useState(false);
  const send = async (answer: Parameters<ReturnType<typeof useAppStore.getState>['answerQuestion']>[1]) => {
    setSending(true);
    // A refused answer keeps what was typed: the person corrects it and sends again.
    setRefusal(await useAppStore.getState().answerQuestion(question, answer));
    setSending(false);
  };
  const submit = () => {
    const content: Record<string, unknown> = {};
    for (const field of question.fields) {
      const text = texts[field.name] ?? '';
      if (text !== '' || field.type === 'boolean') content[field.name] = valueOf(field, text);
    }
    void send({ action: 'accept', content });
  };
  return (
    <form
      className="run-question"
      aria-label={`Question from ${label}`}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <p>
        <strong>{label} asks:</strong> {question.message}
      </p>
      {question.fields.map((field) => {
        const id = `question-${question.nodeId}-${field.name}`;
        const text = texts[field.name] ?? '';
        const set = (value: string) => setTexts((t) => ({ ...t, [field.name]: value }));
        return (
          <label key={field.name} htmlFor={id} className="run-question-field">
            <span>
              {field.title || field.name}
              {field.required ? '' : ' (optional)'}
            </span>
            {field.type === 'boolean' ? (
              <input
                id={id}
                type="checkbox"
                checked={text === 'true'}
                onChange={(e) => set(String(e.target.checked))}
              />
            ) : field.type === 'enum' ? (
              <select id={id} value={text} onChange={(e) => set(e.target.value)}>
                <option value="">choose…</option>
                {(field.options ?? []).map((option) => (
                  <option key={option}>{option}</option>
                ))}
              </select>
            ) : field.type === 'string' ? (
              // Several lines, as in the Run form (run-input-field.tsx); Enter writes a line, Ctrl+Enter answers.
              <textarea
                id={id}
                className="text-input"
                rows={1}
                value={text}
                placeholder={field.description}
                onChange={(e) => set(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key !== 'Enter' || !(e.ctrlKey || e.metaKey)) return;
                  // Not the editor's Ctrl+Enter (a new run): this answers the question.
                  e.preventDefault();
                  e.currentTarget.form?.requestSubmit();
                }}
              />
            ) : (
              <input
                id={id}
                value={text}
                inputMode={field.type === 'integer' ? 'numeric' : 'decimal'}
                placeholder={field.description}
                onChange={(e) => set(e.target.value)}
              />
            )}
          </label>
        );
      })}
      {refusal && (
        <p className="error" role="alert">
          {refusal}
        </p>
      )}
      <div className="run-actions">
        <button type="submit" className="primary" disabled={sending}>
          Answer
        </button>
        <button type="button" disabled={sending} onClick={() => void send({ action: 'decline' })}>
          Decline
        </button>
      </div>
    </form>
  );
}
