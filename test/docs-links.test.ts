// The documentation a user reads: a README of at most 300 lines, and every
// relative link (and image) in README.md, CHANGELOG.md and docs/*.md points
// at a file that exists, with a heading of that name where it names one.
// The pages speak of the package as it is, not of the issues that built it.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pages = ['README.md', 'CHANGELOG.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** The text outside fenced code blocks. */
const unfenced = (md: string): string => md.replace(/^```[\s\S]*?^```/gm, '');
/** The text outside code blocks and inline code, where links are links. */
const prose = (md: string): string => unfenced(md).replace(/`[^`\n]*`/g, '');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string): string => heading.trim().toLowerCase().replace(/`/g, '').replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');

const anchors = (md: string): Set<string> => new Set(unfenced(md).split('\n').filter((l) => /^#{1,6}\s/.test(l)).map((l) => slug(l.replace(/^#+/, ''))));

/** Every link target in a page: [text](target) and ![alt](target), titles dropped. */
const links = (md: string): string[] => [...prose(md).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);

describe('the documentation', () => {
  it('has a README of at most 300 lines', () => {
    const lines = readFileSync(join(root, 'README.md'), 'utf8').split('\n').length;
    expect(lines).toBeLessThanOrEqual(300);
  });

  it.each(pages)('%s: every relative link resolves to a file, and to a heading where it names one', (page) => {
    const md = readFileSync(join(root, page), 'utf8');
    const broken: string[] = [];
    for (const target of links(md)) {
      if (/^[a-z]+:/i.test(target)) continue; // http:, https:, mailto:
      const [path, fragment] = target.split('#') as [string, string | undefined];
      const file = path === '' ? join(root, page) : join(root, dirname(page), decodeURIComponent(path));
      if (!existsSync(file)) {
        broken.push(`${target}: no file ${relative(root, file)}`);
        continue;
      }
      if (fragment && file.endsWith('.md') && statSync(file).isFile() && !anchors(readFileSync(file, 'utf8')).has(fragment)) {
        broken.push(`${target}: ${relative(root, file)} has no heading #${fragment}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it.each(pages)('%s speaks of the package, not of issue numbers', (page) => {
    expect(prose(readFileSync(join(root, page), 'utf8'))).not.toMatch(/\bissue \d+/i);
  });
});
