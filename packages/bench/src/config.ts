import { httpFields } from '@atrium/core';
import { z } from 'zod';

export const benchConfigSchema = z.strictObject({ ...httpFields(6610) }).prefault({});

export type BenchConfig = z.infer<typeof benchConfigSchema>;
