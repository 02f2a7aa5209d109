// Text a user names things with (nicknames, key names, tags, file names, titles, KB
// paths, OAuth client names). None of these characters belongs in a name:
// - C0 controls and DEL: Postgres cannot store NUL, and a newline forges log lines;
// - C1 controls (U+0080-U+009F): invisible, and some terminals act on them;
// - bidi controls (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C): they reorder
//   what is displayed, so "gnp.exe" behind U+202E reads as "exe.png" in a listing;
// - the other format characters (general category Cf: zero-width space, soft hyphen, word
//   joiner, BOM, the tag characters...) and the line and paragraph separators: invisible,
//   so two names that read the same would be different names ("Shelf\u200bSync"), and tag
//   characters carry hidden text to whatever reads the name (an AI agent through MCP).
// Two joiners are kept where they are visible: ZWNJ and ZWJ between letters of a joining
// script or after a virama, where they decide how letters join (Persian, Urdu, the Indic
// scripts); and in titles and other free names, ZWJ between emoji (the family, the rainbow
// flag) and the tag characters of a subdivision flag. Client names and paths do not get the
// emoji exceptions: a name that stands for a program or a file needs no invisible part.
// JSON names that hold one are refused (422); upload file names and titles taken from a
// file have them stripped (multipart.ts, documents' titles), since an upload should not
// fail for its name. A KB path is a name too: the path rule (documents/path.ts) refuses the
// same characters.
//
// TypeBox compiles schema patterns without the u flag and the OpenAPI document's readers
// with it, so the patterns below mean the same either way: BMP escapes only, characters
// outside the BMP written as their UTF-16 halves (which match nothing under the u flag:
// a reader of the document is then only less strict than the server, never more).
import { type StringOptions, Type } from "@sinclair/typebox";
import { AppError } from "./errors.ts";

const CONTROLS = "\\u0000-\\u001f\\u007f-\\u009f";
const BIDI_CONTROLS = "\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069";
const INVISIBLES =
  "\\u00ad\\u0600-\\u0605\\u06dd\\u070f\\u0890\\u0891\\u08e2\\u180e\\u200b-\\u200d\\u2028\\u2029\\u2060-\\u2064\\u206a-\\u206f\\ufeff\\ufff9-\\ufffb";
const ASTRAL_INVISIBLES = "\\ud804[\\udcbd\\udccd]|\\ud80d[\\udc30-\\udc3f]|\\ud82f[\\udca0-\\udca3]|\\ud834[\\udd73-\\udd7a]|\\udb40[\\udc01\\udc20-\\udc7f]";
const UNSAFE = `${CONTROLS}${BIDI_CONTROLS}${INVISIBLES}`;

/** Letters of the joining scripts (Arabic, Syriac, N'Ko, Mandaic, Mongolian, Phags-pa), by block. */
const JOINING = "\\u0600-\\u08ff\\u1800-\\u18af\\ua840-\\ua87f\\ufb50-\\ufdff\\ufe70-\\ufefe";
/** The viramas of the BMP's Brahmic scripts, after which ZWNJ and ZWJ choose a conjunct's form. */
const VIRAMAS =
  "\\u094d\\u09cd\\u0a4d\\u0acd\\u0b4d\\u0bcd\\u0c4d\\u0ccd\\u0d3b\\u0d3c\\u0d4d\\u0dca\\u0f84\\u1039\\u103a\\u1714\\u1715\\u1734\\u17d2\\u1a60\\u1b44\\u1baa\\u1bab\\u1bf2\\u1bf3\\ua806\\ua82c\\ua8c4\\ua953\\ua9c0\\uaaf6\\uabed";
/** Emoji of the BMP that begin or end a ZWJ sequence (the others are outside the BMP). */
const BMP_EMOJI =
  "\\u00a9\\u00ae\\u203c\\u2049\\u2122\\u2139\\u2194-\\u21aa\\u231a-\\u23ff\\u24c2\\u25aa-\\u27bf\\u2934\\u2935\\u2b05-\\u2b55\\u3030\\u303d\\u3297\\u3299";
// "Outside the BMP" both ways: a low half before (a high half after) without the u flag, a code point above U+FFFF with it.
const AFTER_EMOJI = `(?<=[\\udc00-\\udfff${BMP_EMOJI}\\ufe0f]|[^\\u0000-\\uffff])`;
const BEFORE_EMOJI = `(?=[\\ud800-\\udbff${BMP_EMOJI}]|[^\\u0000-\\uffff])`;

const SCRIPT_JOINER = `(?<=[${JOINING}])[\\u200c\\u200d](?=[${JOINING}])|(?<=[${VIRAMAS}])[\\u200c\\u200d]`;
const EMOJI_JOINER = `${AFTER_EMOJI}\\u200d${BEFORE_EMOJI}`;
/** A tag character of a subdivision flag: the waving black flag, then at most a few tags, then this one. */
const FLAG_TAG = "(?<=\\ud83c\\udff4(?:\\udb40[\\udc20-\\udc7e]){0,7})\\udb40[\\udc20-\\udc7f]";

/** Strictness of the rule: `names` for titles, nicknames and tags; `identifiers` for KB paths and client names. */
type Kind = "names" | "identifiers";
const allowed: Record<Kind, string> = { names: `${SCRIPT_JOINER}|${EMOJI_JOINER}|${FLAG_TAG}`, identifiers: SCRIPT_JOINER };
/** One refused character at this position (a pair of UTF-16 halves outside the BMP). */
const refusedHere = (kind: Kind) => `(?!${allowed[kind]})(?:[${UNSAFE}]|${ASTRAL_INVISIBLES})`;

const NAME_REFUSED = new RegExp(refusedHere("names"));
const NAME_REFUSED_ALL = new RegExp(refusedHere("names"), "g");
const IDENTIFIER_REFUSED = new RegExp(refusedHere("identifiers"));
const CONTROL_CHAR = new RegExp(`[${CONTROLS}]`);
const BIDI_CONTROL = new RegExp(`[${BIDI_CONTROLS}]`);

/** Whether the text holds a C0 or C1 control or DEL (the KB path rule refuses them too). */
export const hasControlChar = (text: string) => CONTROL_CHAR.test(text);
/** Whether the text holds a bidi control (the KB path rule refuses them too). */
export const hasBidiControl = (text: string) => BIDI_CONTROL.test(text);

/** The name with every character PlainText refuses removed. */
export const stripUnsafeChars = (name: string) => name.replace(NAME_REFUSED_ALL, "");

/** Whether the name holds a character PlainText refuses. */
export const hasUnsafeChars = (name: string) => NAME_REFUSED.test(name);

/**
 * Whether the text holds a character a name refuses, a joiner between emoji or a flag's
 * tag characters: the rule of KB paths and OAuth client names, where even those are refused.
 */
export const hasInvisibleInIdentifier = (text: string) => IDENTIFIER_REFUSED.test(text);

// Every script of Unicode 16 by its ISO 15924 code, for `mixesScripts`. Codes the runtime
// does not know yet are left out rather than stopping the start.
const SCRIPTS =
  "Adlm Aghb Ahom Arab Armi Armn Avst Bali Bamu Bass Batk Beng Berf Bhks Bopo Brah Brai Bugi Buhd Cakm Cans Cari Cham Cher Chrs Copt Cpmn Cprt Cyrl Deva Diak Dogr Dsrt Dupl Egyp Elba Elym Ethi Gara Geor Glag Gong Gonm Goth Gran Grek Gujr Gukh Guru Hang Hani Hano Hatr Hebr Hira Hluw Hmng Hmnp Hung Ital Java Kali Kana Kawi Khar Khmr Khoj Kits Knda Krai Kthi Lana Laoo Latn Lepc Limb Lina Linb Lisu Lyci Lydi Mahj Maka Mand Mani Marc Medf Mend Merc Mero Miao Mlym Modi Mong Mroo Mtei Mult Mymr Nagm Nand Narb Nbat Newa Nkoo Nshu Ogam Olck Onao Orkh Orya Osge Osma Ougr Palm Pauc Perm Phag Phli Phlp Phnx Plrd Prti Rjng Rohg Runr Samr Sarb Saur Sgnw Shaw Shrd Sidd Sidt Sind Sinh Sogd Sogo Sora Soyo Sund Sunu Sylo Syrc Tagb Takr Tale Talu Taml Tang Tavt Tayo Telu Tfng Tglg Thaa Thai Tibt Tirh Tnsa Todr Tols Toto Tutg Ugar Vaii Vith Wara Wcho Xpeo Xsux Yezi Yiii Zanb Zzzz";
// Unicode TR39's "highly restrictive" level: one script, or Latin with the scripts Japanese,
// Chinese or Korean are written in together. A character that several scripts use (a
// Katakana-Hiragana sound mark, an Arabic comma) counts as any of them; Common and
// Inherited characters (digits, punctuation, combining accents) as none.
const ONE_SCRIPT_OR_ALLOWED_MIX = [
  ...SCRIPTS.split(" ").map((s) => [s]),
  ["Latn", "Hani", "Hira", "Kana"],
  ["Latn", "Hani", "Bopo"],
  ["Latn", "Hani", "Hang"],
].flatMap((set) => {
  try {
    return [new RegExp(`^[${set.map((s) => `\\p{scx=${s}}`).join("")}\\p{scx=Zyyy}\\p{scx=Zinh}]*$`, "u")];
  } catch {
    return [];
  }
});

/**
 * Whether the name's letters come from scripts that are not written together ("Shеlf" with
 * a Cyrillic е): the rule of names that stand for someone else, shown where a user decides
 * whom to trust (OAuth client names).
 */
export const mixesScripts = (name: string) => !ONE_SCRIPT_OR_ALLOWED_MIX.some((re) => re.test(name));

export interface PlainTextOptions extends Omit<StringOptions, "pattern"> {
  /** Refuse a name of only white space too. */
  notBlank?: boolean;
  /** More characters to refuse, as the inside of a regex character class (e.g. "/\\\\"). */
  alsoRefuse?: string;
}

export const PlainText = ({ notBlank = false, alsoRefuse = "", ...opts }: PlainTextOptions = {}) =>
  Type.String({
    ...opts,
    pattern: `^${notBlank ? "(?=.*\\S)" : ""}(?:(?!${refusedHere("names")}${alsoRefuse ? `|[${alsoRefuse}]` : ""})[\\s\\S])*$`,
  });

/** A multipart text field whose bytes are not UTF-8: a 400, as in a JSON body (json-body.ts). */
export const notUtf8Field = (name: string) => new AppError("BAD_REQUEST", `the field ${name} is not valid UTF-8`, { field: `body.${name}` });

/**
 * Why a text field as busboy decoded it is refused; null when it is not. busboy decodes
 * bytes that are not UTF-8 to U+FFFD and hands no bytes, so U+FFFD is taken for them (no
 * title or tag needs it); they are never kept as replacement characters.
 */
export const badFieldText = (name: string, value: string): AppError | null => (value.includes("\uFFFD") ? notUtf8Field(name) : null);
