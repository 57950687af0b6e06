/**
 * Served pages through html-validate, an HTML validator independent of how we build the markup:
 * its recommended rules plus the full-document ones (heading-level, missing-doctype,
 * no-missing-references, input-missing-label). Returns the problems as lines, [] when clean.
 */
import { HtmlValidate } from 'html-validate';

const validator = new HtmlValidate({
  extends: ['html-validate:recommended', 'html-validate:document'],
  rules: {
    // Lowercase `<!doctype html>` is valid and what Prettier writes.
    'doctype-style': 'off',
    // `<br />` and `<br>` are both valid; the templates are Prettier-formatted, which writes the first.
    'void-style': 'off',
    // Indentation left by template interpolation: invisible in the page, not worth shaping templates around.
    'no-trailing-whitespace': 'off',
    // Every script and stylesheet comes from this service itself, not a CDN: SRI would guard nothing.
    'require-sri': 'off',
  },
});

export async function htmlProblems(html: string): Promise<string[]> {
  const report = await validator.validateString(html);
  return report.results.flatMap((r) =>
    r.messages.map(
      (m) => `${m.ruleId} ${m.line}:${m.column} ${m.message}${m.selector ? ` (${m.selector})` : ''}`,
    ),
  );
}
