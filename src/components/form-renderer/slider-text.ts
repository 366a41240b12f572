/** A slider's answer in words, the same in both modes: "7 (from 0 to 10)". */
export const sliderText = (value: number, min: number, max: number): string => `${value} (from ${min} to ${max})`;
