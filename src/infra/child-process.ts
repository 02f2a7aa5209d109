// Child processes (ffmpeg, ffprobe, the Typst compiler) that die with the process that
// started them. A process killed with SIGKILL runs no handler, so nothing it does on its way
// out can stop them: left alone, a transcode goes on for minutes on a node that is gone,
// holding its CPU. On Linux the kernel stops them: the parent-death signal (prctl
// PR_SET_PDEATHSIG) kills a child the moment its parent dies, however it died. Bun.spawn
// cannot set it, so setpriv (util-linux) does: it sets the signal and execs the command in
// its own place, so the child keeps its pid (kill() and /proc reach the command itself) and
// the signal survives the exec. A parent that dies in the instant between the fork and
// setpriv's call leaves that one child untied.
//
// Without it (another platform, no setpriv, or one older than util-linux 2.33) children are
// started plainly and may outlive a killed node; `childTie()` says why, `shelf serve` logs
// it as a warning and `shelf doctor` reports it (docs/operators.md).

export interface ChildTie {
  /** True when a child started here is killed as soon as this process dies. */
  tied: boolean;
  detail: string;
}

interface Launcher {
  prefix: string[];
  tie: ChildTie;
}

let launcher: Promise<Launcher> | undefined;

/** Runs setpriv once to learn whether it can set the signal here (a seccomp filter or an old version cannot). */
async function findLauncher(): Promise<Launcher> {
  if (process.platform !== "linux") {
    return { prefix: [], tie: { tied: false, detail: `no parent-death signal on ${process.platform}: a killed process leaves its children running` } };
  }
  const setpriv = Bun.which("setpriv");
  if (!setpriv) {
    return { prefix: [], tie: { tied: false, detail: "setpriv (util-linux) is not on PATH: a killed process leaves its children running" } };
  }
  const prefix = [setpriv, "--pdeathsig", "KILL", "--"];
  try {
    const probe = Bun.spawn([...prefix, setpriv, "--version"], { stdin: "ignore", stdout: "ignore", stderr: "pipe" });
    const [code, err] = await Promise.all([probe.exited, new Response(probe.stderr).text()]);
    if (code === 0) return { prefix, tie: { tied: true, detail: `children get SIGKILL when this process dies (${setpriv} --pdeathsig)` } };
    const why = err.trim().split("\n")[0]?.slice(0, 200) || `exit ${code}`;
    return { prefix: [], tie: { tied: false, detail: `${setpriv} cannot set the parent-death signal (${why}): a killed process leaves its children running` } };
  } catch (e) {
    return { prefix: [], tie: { tied: false, detail: `${setpriv} could not be run (${(e as Error).message}): a killed process leaves its children running` } };
  }
}

/** Whether children die with this process, and how (found once per process). */
export async function childTie(): Promise<ChildTie> {
  launcher ??= findLauncher();
  return (await launcher).tie;
}

/**
 * Bun.spawn for a child that must not outlive this process. Every child process of the
 * server starts here. A bare command name is looked up on the child's PATH first, so a
 * missing program fails as Bun.spawn fails (ENOENT), not as setpriv's exit code. Call it
 * from the main thread: the kernel's "parent" is the thread that forked, and a child
 * started from a worker thread would be killed when that thread ends.
 */
export async function spawnChild<
  const In extends Bun.SpawnOptions.Writable = "ignore",
  const Out extends Bun.SpawnOptions.Readable = "pipe",
  const Err extends Bun.SpawnOptions.Readable = "inherit",
>(cmd: string[], options: Bun.SpawnOptions.SpawnOptions<In, Out, Err> = {}): Promise<Bun.Subprocess<In, Out, Err>> {
  launcher ??= findLauncher();
  const { prefix } = await launcher;
  const [program, ...args] = cmd;
  const path = program?.includes("/") ? program : program && Bun.which(program, { PATH: options.env?.PATH ?? process.env.PATH ?? "" });
  if (!prefix.length || !path) return Bun.spawn(cmd, options);
  return Bun.spawn([...prefix, path, ...args], options);
}
