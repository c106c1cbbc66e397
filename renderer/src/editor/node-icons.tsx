import {
  Ban,
  Bot,
  Braces,
  CircleCheck,
  CircleDashed,
  CircleX,
  Flag,
  GitBranch,
  Globe,
  Hourglass,
  LoaderCircle,
  LogIn,
  MessageCircleQuestionMark,
  OctagonX,
  SkipForward,
  Sparkles,
  SquareCode,
  Workflow,
  Wrench,
  type LucideIcon,
} from 'lucide-react';
import type { StepStatus } from '../../../core/model/run';
import type { NodeIcon } from '../../../core/nodes/define-node';

/** The drawing for each icon a node type names (core/nodes/<type>/definition.ts). */
export const NODE_ICONS: Record<NodeIcon, LucideIcon> = {
  enter: LogIn,
  ask: MessageCircleQuestionMark,
  text: Braces,
  code: SquareCode,
  model: Sparkles,
  agent: Bot,
  tool: Wrench,
  web: Globe,
  flow: Workflow,
  branch: GitBranch,
  wait: Hourglass,
  stop: OctagonX,
  result: Flag,
};

/** A step's status on its card, as an icon (the word is its title, and read out). */
export const STATUS_ICONS: Record<StepStatus, LucideIcon> = {
  pending: CircleDashed,
  running: LoaderCircle,
  succeeded: CircleCheck,
  failed: CircleX,
  skipped: SkipForward,
  cancelled: Ban,
};
