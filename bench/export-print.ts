// How `make bench` prints (v), the account export against tar (bench/export.ts).
import { costText, loadText } from "./cpu.ts";
import { ratioText } from "./passes.ts";
import type { ExportFigures } from "./export.ts";

const fmt = (n: number, d = 1) => n.toFixed(d);

export function printExport(x: ExportFigures) {
  console.log(
    `\n(v) account export (POST /v1/backup, the worker writing the zip to folder storage) of ${x.files} images, ${fmt(x.mb, 0)} MB, against tar -cf of the same files`,
  );
  console.log(`    shelf export           ${fmt(x.throughput.subject, 0)} MB/s`);
  console.log(`    tar                    ${fmt(x.throughput.baseline, 0)} MB/s`);
  console.log(`    ratio                  ${ratioText(x.throughput)}   (target >= 0.7)`);
  console.log(`    ${costText(x.throughput.cpu, "MB", ["export", "tar"])}   (this process and the tools it waited for), ${loadText(x.throughput.load)}`);
  console.log(
    `    peak RSS growth        ${fmt(x.smallGrowthMB, 0)} MB for ${x.files / 4} files, ${fmt(x.largeGrowthMB, 0)} MB for ${x.files}   (target: flat as the account grows; tar's own peak ${fmt(x.tarPeakMB, 0)} MB)`,
  );
}
