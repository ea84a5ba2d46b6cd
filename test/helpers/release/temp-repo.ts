// A temporary git repository made from this project's files (those git would commit: all, or under the paths asked
// for), with one commit on `main`, for tests that run the project's scripts against a history of their own.
// node_modules can be a symlink to this project's, so nothing is installed. remove() deletes it all.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { root } from "../../../scripts/lib/script.ts";

export { root };

/** Who commits and tags in a temporary repository (git refuses to without a name). */
export const gitIdentity = {
  GIT_AUTHOR_NAME: "Rehearsal",
  GIT_AUTHOR_EMAIL: "rehearsal@example.invalid",
  GIT_COMMITTER_NAME: "Rehearsal",
  GIT_COMMITTER_EMAIL: "rehearsal@example.invalid",
};

export interface TempRepo {
  dir: string;
  /** Runs git in the repository; returns its output. */
  git(...args: string[]): string;
  /** Stages everything and commits. */
  commit(message: string): void;
  remove(): void;
}

export function createTempRepo(paths: string[] = [], { nodeModules = false } = {}): TempRepo {
  const dir = mkdtempSync(join(tmpdir(), "rainbond-repo-"));
  try {
    // the files git would commit here: tracked and new, not ignored, still present
    const files = execFileSync(
      "git",
      ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ...paths],
      {
        cwd: root,
        encoding: "utf8",
      },
    )
      .split("\0")
      .filter((file) => file && existsSync(join(root, file)));
    for (const file of files) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      cpSync(join(root, file), join(dir, file));
    }
    if (nodeModules) symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
    const git = (...args: string[]) =>
      execFileSync("git", args, {
        cwd: dir,
        encoding: "utf8",
        env: { ...process.env, ...gitIdentity },
      });
    git("init", "-q", "-b", "main");
    git("config", "commit.gpgsign", "false");
    const commit = (message: string) => {
      git("add", "-A");
      git("commit", "-q", "--allow-empty", "-m", message);
    };
    commit("the project as it is");
    return { dir, git, commit, remove: () => rmSync(dir, { recursive: true, force: true }) };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
