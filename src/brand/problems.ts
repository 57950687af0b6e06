/**
 * What is wrong with a brand folder, said precisely enough to fix: file, field, reason.
 */
export interface BrandProblem {
  file: string;
  field: string;
  reason: string;
}

export class BrandInvalidError extends Error {
  constructor(
    readonly dir: string,
    readonly problems: BrandProblem[],
  ) {
    super(
      `brand folder ${dir} is invalid (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n` +
        problems.map((p) => `  - ${p.file}: ${p.field}: ${p.reason}`).join('\n'),
    );
    this.name = 'BrandInvalidError';
  }
}
