// Parsing numeric command-line options, with an error that names the option and the value.

import { InvalidArgumentError } from 'commander';

/** A commander parser for a number `check` accepts (any finite number by default). */
export function numberOption(what: string, check: (x: number) => boolean = () => true) {
  return (value: string): number => {
    const x = Number(value);
    if (!Number.isFinite(x) || !check(x)) throw new InvalidArgumentError(`${what}: invalid value "${value}"`);
    return x;
  };
}

export const formatFixed = (x: number | undefined, digits = 1): string => (x === undefined || Number.isNaN(x) ? '–' : x.toFixed(digits));
