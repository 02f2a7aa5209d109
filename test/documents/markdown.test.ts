// What a Markdown document says about itself (markdown.ts over its parser): the facts
// the list and search show, and the exact spans inline images are rewritten at. The
// expected values are those the remark toolchain gave before the parser changed, except
// the reference whose title repeats its URL (remark's facts located the title) and the
// table row of two equal cells (now not located rather than told apart).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { type MarkdownFacts, readMarkdown } from "../../src/modules/library/documents/markdown.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

const png = "data:image/png;base64,iVBORw0KGgo=";

const cases: [string, string, MarkdownFacts][] = [
  [
    "YAML frontmatter title and tags, the first H1 without its markup, the first paragraph as the excerpt",
    "---\ntitle: FM Title\ntags: [a, b]\n---\n# H1 *here*\n\nFirst para with `code` and [a link](http://x.y).\n",
    { frontmatterTitle: "FM Title", frontmatterTags: ["a", "b"], firstH1: "H1 here", excerpt: "First para with code and a link.", images: [], wordCount: 9 },
  ],
  [
    "a frontmatter fence that never closes is no frontmatter",
    "---\ntitle: not closed\n\n# Heading\n",
    { firstH1: "Heading", excerpt: "title: not closed", images: [], wordCount: 4 },
  ],
  [
    "frontmatter after a byte order mark, fences with trailing blanks, a number title and comma tags",
    "\uFEFF--- \ntitle: 42\ntags: x, y\n---\t\nBody.\n",
    { frontmatterTitle: "42", frontmatterTags: ["x", "y"], excerpt: "Body.", images: [], wordCount: 1 },
  ],
  [
    "a setext H1 over two lines, CRLF line endings",
    "Title\r\nline\r\n=====\r\n\r\nBody\r\ntext.\r\n",
    { firstH1: "Title\nline", excerpt: "Body text.", images: [], wordCount: 4 },
  ],
  [
    "GFM task list checks are not text; [y] is",
    "- [x] done *task*\n- [ ]\ttodo\n- [x]\n  next line\n- [y] not a task\n",
    { excerpt: "done task", images: [], wordCount: 9 },
  ],
  [
    "GFM strikethrough of one or two tildes; three are text",
    "~~two~~ and ~one~ but ~~~three~~~ and a~b~c\n",
    { excerpt: "two and one but ~~~three~~~ and abc", images: [], wordCount: 9 },
  ],
  [
    "GFM footnote references are not text; definitions are",
    "Text with a note[^1] here.\n\n[^1]: The note's own words.\n",
    { excerpt: "Text with a note here.", images: [], wordCount: 9 },
  ],
  [
    "an image by reference takes its definition's URL (before the title, which repeats it) and gives the excerpt no alt text",
    `![by ref][pic] and ![inline alt](http://cdn.test/i.png) ![pic]\n\n[pic]: ${png} "${png}"\n`,
    {
      excerpt: "and inline alt",
      images: [
        { url: "data:image/png;base64,iVBORw0KGgo=", span: [71, 105] },
        { url: "http://cdn.test/i.png", span: [33, 54] },
        { url: "data:image/png;base64,iVBORw0KGgo=", span: [71, 105] },
      ],
      wordCount: 1,
    },
  ],
  [
    "URL spans in a blockquote, a list item indented by a tab, <...> destinations and titles",
    `> quote ![q](${png})\n\n- item\n\t![t](<${png}>)\n\nA line with ![a](${png}) and ![b](${png} "t").\n`,
    {
      excerpt: "quote q",
      images: [
        { url: "data:image/png;base64,iVBORw0KGgo=", span: [13, 47] },
        { url: "data:image/png;base64,iVBORw0KGgo=", span: [64, 98] },
        { url: "data:image/png;base64,iVBORw0KGgo=", span: [119, 153] },
        { url: "data:image/png;base64,iVBORw0KGgo=", span: [164, 198] },
      ],
      wordCount: 6,
    },
  ],
  [
    "URL spans with CRLF line endings, in a paragraph and a heading",
    `Para\r\n![x](${png})\r\n\r\n## ![h](${png}) heading\r\n`,
    {
      excerpt: "Para x",
      images: [
        { url: "data:image/png;base64,iVBORw0KGgo=", span: [11, 45] },
        { url: "data:image/png;base64,iVBORw0KGgo=", span: [58, 92] },
      ],
      wordCount: 2,
    },
  ],
  [
    "a URL written with an escape, and a table row whose two cells are alike, are not located (never rewritten)",
    `![escaped](data:image/png;base64,iVBO\\\\RwKGgo=)\n\n| ![x](${png}) | ![x](${png}) |\n|---|---|\n`,
    {
      excerpt: "escaped",
      images: [
        { url: "data:image/png;base64,iVBO\\RwKGgo=", span: null },
        { url: "data:image/png;base64,iVBORw0KGgo=", span: null },
        { url: "data:image/png;base64,iVBORw0KGgo=", span: null },
      ],
      wordCount: 0,
    },
  ],
  [
    "an image in a link is one; an image in another's alt text is that text",
    `[![inner](${png})](http://l) and ![outer ![in](http://i/x.png)](${png})\n`,
    {
      excerpt: "inner and outer in",
      images: [
        { url: "data:image/png;base64,iVBORw0KGgo=", span: [10, 44] },
        { url: "data:image/png;base64,iVBORw0KGgo=", span: [92, 126] },
      ],
      wordCount: 1,
    },
  ],
  [
    "HTML is not prose, code is",
    "<div>\nhtml block words\n</div>\n\nInline <span>html</span> text.\n\n```js\nconst code = 1; // counted\n```\n",
    { excerpt: "Inline html text.", images: [], wordCount: 7 },
  ],
  [
    "CJK characters count one each",
    "中文字符测试 日本語のテキスト 한국어 and English words\n",
    {
      excerpt: "\u4e2d\u6587\u5b57\u7b26\u6d4b\u8bd5 \u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8 \ud55c\uad6d\uc5b4 and English words",
      images: [],
      wordCount: 20,
    },
  ],
  ["a hard break adds nothing to the excerpt", "Hard  \nbreak and soft\nbreak\n", { excerpt: "Hardbreak and soft break", images: [], wordCount: 5 }],
  [
    "a long first paragraph is cut to 200 characters with an ellipsis",
    `${"word ".repeat(60)}\n`,
    {
      excerpt:
        "word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word\u2026",
      images: [],
      wordCount: 60,
    },
  ],
];

describe("readMarkdown", () => {
  test.each(cases)("%s", (_, source, facts) => {
    const read = readMarkdown(source);
    expect({ ...read, firstH1: read.firstH1?.replace(/\s+/g, " ") }).toEqual({ ...facts, firstH1: facts.firstH1?.replace(/\s+/g, " ") });
    for (const image of read.images) if (image.span) expect(source.slice(...image.span)).toBe(image.url);
  });
});
