/** n8n's Chat Trigger as its Download writes it, at the left of its canvas: the start of most of n8n's AI workflows. */
export const n8nChatTrigger = (position: [number, number] = [0, 0]) => ({
  name: 'Chat',
  type: '@n8n/n8n-nodes-langchain.chatTrigger',
  typeVersion: 1.1,
  position,
  parameters: {},
});
