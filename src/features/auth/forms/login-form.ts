import { z } from 'zod';
import { loginRequestSchema } from '@/contract/auth';

/** The login request plus the region, which only picks the base address. */
export const loginFormSchema = loginRequestSchema.extend({ region: z.string().min(1, { error: 'Region is required' }) });
export type LoginFormInput = z.input<typeof loginFormSchema>;
export type LoginFormValues = z.output<typeof loginFormSchema>;
