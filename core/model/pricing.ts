import { z } from 'zod';
import type { TokenUsage } from './run';

/**
 * Prices per model, in US dollars per million tokens, as the person enters
 * them: nothing is assumed (local models cost nothing, vendors change their
 * prices), so a model without a price has no cost rather than a guessed one.
 */
export const PriceSchema = z.lazy(() =>
  z.object({
    /** Empty: this model at any provider. */
    provider: z.string().max(64).default(''),
    model: z.string().trim().min(1, 'a price names a model').max(200),
    inputPerMillion: z.number().finite().min(0, 'a price cannot be negative').max(100_000),
    outputPerMillion: z.number().finite().min(0, 'a price cannot be negative').max(100_000),
  }),
);
export type Price = z.infer<typeof PriceSchema>;

export const PriceTableSchema = z.lazy(() => z.object({ prices: z.array(PriceSchema).max(1000).default([]) }));
export type PriceTable = z.infer<typeof PriceTableSchema>;

/** The price of a model at a provider: the provider's own entry first, then one for any provider. */
export function priceFor(table: PriceTable, provider: string, model: string): Price | undefined {
  return (
    table.prices.find((p) => p.model === model && p.provider === provider) ??
    table.prices.find((p) => p.model === model && p.provider === '')
  );
}

/** What the tokens cost at a price, in dollars. */
export function costOf(usage: TokenUsage, price: Price): number {
  return ((usage.inputTokens ?? 0) * price.inputPerMillion + (usage.outputTokens ?? 0) * price.outputPerMillion) / 1e6;
}

/** Token totals and cost over a run's steps; `cost` only when some step had a price. */
export function totalUsage(usages: readonly (TokenUsage | undefined)[]): TokenUsage | undefined {
  let total: TokenUsage | undefined;
  for (const usage of usages) {
    if (!usage) continue;
    total ??= { inputTokens: 0, outputTokens: 0 };
    total.inputTokens = (total.inputTokens ?? 0) + (usage.inputTokens ?? 0);
    total.outputTokens = (total.outputTokens ?? 0) + (usage.outputTokens ?? 0);
    if (usage.cost !== undefined) total.cost = (total.cost ?? 0) + usage.cost;
  }
  return total;
}

/** A cost as people read it: "$0.0042", "$1.20". */
export function formatCost(cost: number): string {
  return cost >= 0.01 || cost === 0 ? `$${cost.toFixed(2)}` : `$${cost.toPrecision(2)}`;
}
