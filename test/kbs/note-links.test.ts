// How notes name each other (src/modules/library/kbs/note-links.ts), the rules the backlinks
// route and the dashboard share: a wikilink's parts, a Markdown link's place, and which of
// a KB's paths a name resolves to.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { headingSlug, LinkIndex, parseWikilink, relativeHref } from "../../src/modules/library/kbs/note-links.ts";
import { TEST_TIMEOUT_MS } from "../helpers/timeout.ts";

setDefaultTimeout(TEST_TIMEOUT_MS);

describe("parseWikilink", () => {
  test("reads the target, the last heading, a block and the alias; a pipe escaped in a table is a pipe", () => {
    expect(parseWikilink("folder/Note#Part#Goals|the goals", false)).toEqual({
      target: "folder/Note",
      heading: "Goals",
      block: null,
      alias: "the goals",
      embed: false,
    });
    expect(parseWikilink("Note#^abc123", false)).toMatchObject({ target: "Note", heading: null, block: "abc123" });
    expect(parseWikilink("Note\\|shown", false)).toMatchObject({ target: "Note", alias: "shown" });
    expect(parseWikilink("#Heading", false)).toMatchObject({ target: "", heading: "Heading" });
    expect(parseWikilink("photo.png|300", true)).toMatchObject({ target: "photo.png", alias: "300", embed: true });
  });

  test("names nothing when it is empty or only a pipe", () => {
    expect(parseWikilink("", false)).toBeNull();
    expect(parseWikilink(" |x", false)).toBeNull();
    expect(parseWikilink("#", false)).toBeNull();
  });
});

describe("relativeHref", () => {
  test("a path with its escapes decoded and its anchor; nothing for a scheme or a network path", () => {
    expect(relativeHref("../My%20Note.md#Some%20part")).toEqual({ path: "../My Note.md", anchor: "Some part" });
    expect(relativeHref("notes.md?x=1")).toEqual({ path: "notes.md", anchor: null });
    expect(relativeHref("#top")).toEqual({ path: "", anchor: "top" });
    expect(relativeHref("https://example.org/a.md")).toBeNull();
    expect(relativeHref("mailto:a@example.org")).toBeNull();
    expect(relativeHref("//example.org/a.md")).toBeNull();
  });
});

describe("LinkIndex", () => {
  const index = new LinkIndex([
    "Plan.md",
    "projects/Plan.md",
    "projects/Status.md",
    "archive/2024/Plan.md",
    "papers/Findings.typ",
    "img/photo.png",
    "journal/Monday.md",
  ]);

  test("a name is a document's file name without extension, letter case ignored: the linking note's folder first, then the shortest path", () => {
    expect(index.resolve("Plan", "journal/Monday.md")).toBe("Plan.md");
    expect(index.resolve("plan", "projects/Status.md")).toBe("projects/Plan.md");
    expect(index.resolve("PLAN.md", "archive/2024/x.md")).toBe("archive/2024/Plan.md");
    expect(index.resolve("Findings", "Plan.md")).toBe("papers/Findings.typ");
  });

  test("a file other than a document is named with its extension", () => {
    expect(index.resolve("photo.png", "Plan.md")).toBe("img/photo.png");
    expect(index.resolve("photo", "Plan.md")).toBeNull();
  });

  test("a path is read from the top, or matches the end of a longer one; a leading slash is the top only", () => {
    expect(index.resolve("projects/Plan", "journal/Monday.md")).toBe("projects/Plan.md");
    expect(index.resolve("2024/Plan", "Plan.md")).toBe("archive/2024/Plan.md");
    expect(index.resolve("/Plan", "projects/Status.md")).toBe("Plan.md");
    expect(index.resolve("/Monday", "Plan.md")).toBeNull();
  });

  test("a relative link is read from the note's folder first, then as a name; ./ and ../ from the folder only", () => {
    expect(index.resolve("Status.md", "projects/Plan.md", true)).toBe("projects/Status.md");
    expect(index.resolve("../Plan.md", "projects/Status.md", true)).toBe("Plan.md");
    expect(index.resolve("Monday.md", "Plan.md", true)).toBe("journal/Monday.md");
    expect(index.resolve("./Monday.md", "Plan.md", true)).toBeNull();
    expect(index.resolve("../../Plan.md", "Plan.md", true)).toBeNull();
    expect(index.resolve("Nowhere", "Plan.md")).toBeNull();
  });

  test("a folder is named by a relative link to it", () => {
    expect(index.folder("archive/", "Plan.md")).toBe("archive");
    expect(index.folder("../archive/2024", "projects/Status.md")).toBe("archive/2024");
    expect(index.folder("nothing", "Plan.md")).toBeNull();
  });
});

test("headingSlug: lower case, letters and digits kept, spaces as dashes, never empty", () => {
  expect(headingSlug("  Goals for 2026!  ")).toBe("goals-for-2026");
  expect(headingSlug("Café & Crème")).toBe("café-crème");
  expect(headingSlug("???")).toBe("section");
});
