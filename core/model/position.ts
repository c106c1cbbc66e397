import { z } from 'zod';

/** Where a node or a note sits on the canvas. */
export const PositionSchema = z.lazy(() => z.object({ x: z.number().finite(), y: z.number().finite() }));
