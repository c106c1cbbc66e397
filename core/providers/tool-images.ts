import type { ModelMessage } from 'ai';
import type { PromptImage } from '../model/prompt-images';

/** The pictures one tool call answered with, and the line that introduces them to the model. */
export interface SentImages {
  intro: string;
  images: readonly PromptImage[];
}

/** By tool call id. */
export type ToolImages = ReadonlyMap<string, SentImages>;

/**
 * The messages of an agent's next turn with the pictures its tools answered
 * with, each call's as a user message right after the tool answers (whose
 * text has `[image 1]`… where they were). A tool answer is text in OpenAI's
 * chat API, which OpenAI-compatible servers (Ollama, LM Studio, vLLM) speak,
 * so the pictures go as the user's, where every vision API takes images.
 * The AI SDK hands each turn the conversation without these, so they are
 * added again each turn.
 */
export function withToolImages(messages: readonly ModelMessage[], images: ToolImages): ModelMessage[] {
  return messages.flatMap((message): ModelMessage[] => {
    if (message.role !== 'tool') return [message];
    const sent = message.content.flatMap((part) => {
      const found = part.type === 'tool-result' ? images.get(part.toolCallId) : undefined;
      return found ? [found] : [];
    });
    if (sent.length === 0) return [message];
    return [
      message,
      {
        role: 'user',
        content: sent.flatMap(({ intro, images: pictures }) => [
          { type: 'text' as const, text: intro },
          ...pictures.map((image) => ({ type: 'image' as const, image: image.data, mediaType: image.mediaType })),
        ]),
      },
    ];
  });
}
