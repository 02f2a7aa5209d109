// The usage resource laid out from the dimensions: each counter sits where its
// description's `report.at` says, between the resource's own fields (plan, video status,
// the document cap). One layout gives both the schema (model.ts) and the values, so the
// two cannot disagree and a new dimension shows in both.
import { monthKey } from "../../infra/clock.ts";
import type { PlanLimits } from "../identity/public.ts";
import { limitOf, type Dimension, type Report } from "./dimensions.ts";
import type { Snapshot } from "./ledger.ts";

/** Nested fields in insertion order, which is the order the JSON keys are written in. */
export type Tree<L> = { [key: string]: L | Tree<L> };

/** The fields that are not a counter of their own, by path. */
export type OwnFields<L> = Record<"plan" | "planActive" | "video.status" | "planLimits.docCount" | "planLimits.revisionBytes", L>;

// The order of the resource's groups, as the usage resource lists them; a group a new dimension
// brings comes after these.
const GROUPS = ["plan", "planActive", "image", "video", "doc", "planLimits", "docs", "uploads"];

/** A dimension the resource shows. */
export type Reported = Dimension & { readonly report: Report };

export function usageLayout<L>(dimensions: readonly Dimension[], leaf: (d: Reported) => L, own: OwnFields<L>): Tree<L> {
  const placeholders = new Set<object>();
  const tree: Tree<L> = {};
  for (const g of GROUPS) {
    const p = {};
    placeholders.add(p);
    tree[g] = p;
  }
  const place = (at: readonly string[], value: L) => {
    let node = tree;
    for (const key of at.slice(0, -1)) {
      node[key] ??= {};
      // A group that holds a field is kept; the ones nothing was placed in are dropped below.
      placeholders.delete(node[key] as object);
      node = node[key] as Tree<L>;
    }
    const last = at[at.length - 1]!;
    const there = node[last];
    if (there !== undefined && !placeholders.has(there as object)) throw new Error(`usage resource: two fields at ${at.join(".")}`);
    placeholders.delete(there as object);
    node[last] = value;
  };
  for (const d of dimensions) if (d.report) place(d.report.at, leaf(d as Reported));
  for (const [path, value] of Object.entries(own) as [string, L][]) place(path.split("."), value);
  for (const g of GROUPS) if (placeholders.has(tree[g] as object)) delete tree[g];
  return tree;
}

function mapTree<L, R>(tree: Tree<L>, isLeaf: (v: L | Tree<L>) => v is L, f: (leaf: L) => R): Tree<R> {
  const out: Tree<R> = {};
  for (const [k, v] of Object.entries(tree)) out[k] = isLeaf(v) ? f(v) : mapTree(v, isLeaf, f);
  return out;
}

type Value = (d: { snapshot: Snapshot; limits: PlanLimits; now: Date }) => unknown;
const isValue = (v: Value | Tree<Value>): v is Value => typeof v === "function";

/** One counter as the resource shows it. */
function counterValue(d: Reported): Value {
  return ({ snapshot, limits, now }) => {
    const used = snapshot[d.name] ?? 0;
    if (d.report.shape === "used") return used;
    const limit = limitOf(d, limits);
    return d.report.shape === "monthly" ? { used, limit, monthYear: monthKey(now) } : { used, limit };
  };
}

/** The values of the resource: counters from `snapshot`, the own fields as given. */
export function usageReport(dimensions: readonly Dimension[], input: { snapshot: Snapshot; limits: PlanLimits; now: Date }, own: OwnFields<unknown>) {
  const constant = Object.fromEntries(Object.entries(own).map(([path, v]) => [path, () => v])) as unknown as OwnFields<Value>;
  const layout = usageLayout<Value>(dimensions, counterValue, constant);
  return mapTree(layout, isValue, (v) => v(input));
}
