#!/usr/bin/env python3
"""Moves each test file into its project's folder (test/unit, test/mock, test/tooling, test/soak) and rewrites the
relative imports of every file under test/ (and of the two vitest configs) to match: the one mechanical commit that
makes vitest's projects its folders (vitest.config.ts). Run from the repository root, on a clean work tree:

    python3 test/setup/move-to-project-folders.py            # prints the moves, changes nothing
    python3 test/setup/move-to-project-folders.py --apply    # git mv + import rewrite; then delete this file

Each test file goes to test/<project>/<its path under test/>. A helper goes with the tests that import it when they
all belong to one project; one that tests of several projects import goes to test/helpers/<its path under test/>.
Files already in test/helpers/ or test/setup/, and test/'s own files (vitest.mjs, the reporter, tsconfig.json, the
soak config), stay. The project of each test file is read from vitest.config.ts's `waiting` lists (tooling otherwise).
After --apply, empty `waiting` in vitest.config.ts (each project is then its folder).
"""
import os
import re
import subprocess
import sys

ROOT = os.getcwd()
TEST = "test"
STAYS = {"test/vitest.mjs", "test/progress-reporter.ts", "test/tsconfig.json", "test/soak.config.ts"}
PROJECTS = ("unit", "mock", "tooling", "soak")
IMPORT = re.compile(r"""((?:from|import)\s*\(?\s*["'])(\.{1,2}/[^"']+)(["'])|(new URL\(\s*["'])(\.{1,2}/[^"']+)(["'])""")


def tracked():
    out = subprocess.check_output(["git", "ls-files", TEST], text=True)
    return [f for f in out.split("\n") if f]


def waiting_lists():
    text = open("vitest.config.ts", encoding="utf8").read()
    block = text[text.index("const waiting = {") : text.index("};", text.index("const waiting = {"))]
    lists, current = {}, None
    for line in block.split("\n"):
        m = re.match(r"\s*(\w+): \[", line)
        if m:
            current = m.group(1)
            lists[current] = []
        for path in re.findall(r'"(test/[^"]+)"', line):
            lists[current].append(path)
    return {path: project for project, paths in lists.items() for path in paths}


def is_test(path):
    return path.endswith(".test.ts") or path.endswith(".test-d.ts")


def resolve(importer, spec):
    """The tracked file a relative specifier of `importer` names (.js written for .ts included), or None."""
    target = os.path.normpath(os.path.join(os.path.dirname(importer), spec))
    for candidate in (target, re.sub(r"\.js$", ".ts", target), re.sub(r"\.mjs$", ".mts", target)):
        if os.path.isfile(candidate):
            return candidate, candidate != target
    if os.path.isdir(target):
        return target, False
    return None, False


def main():
    apply = "--apply" in sys.argv[1:]
    files = tracked()
    project_of_test = waiting_lists()
    project = {}
    for f in files:
        if is_test(f):
            project[f] = project_of_test.get(f, "tooling")
        if f.startswith(tuple(f"test/{p}/" for p in PROJECTS)):
            project[f] = f.split("/")[1]  # already in its folder

    # who imports each file under test/
    sources = [f for f in files if f.endswith((".ts", ".mts", ".mjs"))]
    importers = {}
    for f in sources:
        for m in IMPORT.finditer(open(f, encoding="utf8").read()):
            spec = m.group(2) or m.group(5)
            target, _ = resolve(f, spec)
            if target and target.startswith("test/"):
                importers.setdefault(target, set()).add(f)

    def projects_using(helper, seen=()):
        found = set()
        for user in importers.get(helper, ()):
            if user in project:
                found.add(project[user])
            elif user not in seen:
                found |= projects_using(user, seen + (helper,))
        return found

    moves = {}
    for f in files:
        rest = f[len("test/") :]
        if f in STAYS or rest.startswith(("helpers/", "setup/")) or f.startswith(tuple(f"test/{p}/" for p in PROJECTS)):
            continue
        if f in project:
            moves[f] = f"test/{project[f]}/{rest}"
            continue
        # a helper, a fixture or a README: with its folder's code
        anchor = f
        if not f.endswith((".ts", ".mts", ".mjs")):
            siblings = [s for s in sources if os.path.dirname(s) == os.path.dirname(f) and not is_test(s)]
            folder_users = set().union(*(projects_using(s) for s in siblings)) if siblings else set()
            tests_here = {project[s] for s in files if s in project and os.path.dirname(s) == os.path.dirname(f)}
            used = folder_users or tests_here
            if not used and "/fixtures/" in f:
                parent = os.path.dirname(os.path.dirname(f))
                used = set().union(*(projects_using(s) for s in sources if os.path.dirname(s) == parent))
        else:
            used = projects_using(anchor)
        if len(used) == 1:
            moves[f] = f"test/{used.pop()}/{rest}"
        elif used:
            moves[f] = f"test/helpers/{rest}"
        else:
            print(f"# left where it is (nothing imports it): {f}", file=sys.stderr)

    for old, new in sorted(moves.items()):
        print(f"{old} -> {new}")
    if not apply:
        return

    where = lambda path: moves.get(path, path)
    rewrites = {}
    for f in sources + ["vitest.config.ts"]:
        text = open(f, encoding="utf8").read()

        def fix(m):
            prefix, spec, suffix = (m.group(1), m.group(2), m.group(3)) if m.group(2) else (m.group(4), m.group(5), m.group(6))
            target, swapped = resolve(f, spec)
            if not target or (where(target) == target and where(f) == f):
                return m.group(0)
            new_target = where(target)
            if swapped:  # written with .js for a .ts file: keep the writing
                new_target = re.sub(r"\.ts$", ".js", new_target)
            rel = os.path.relpath(new_target, os.path.dirname(where(f)))
            if not rel.startswith("."):
                rel = "./" + rel
            if spec.endswith("/"):  # a folder, as URLs resolve against it
                rel += "/"
            return f"{prefix}{rel}{suffix}"

        new = IMPORT.sub(fix, text)
        if new != text:
            rewrites[f] = new
    for old, new in sorted(moves.items()):
        os.makedirs(os.path.dirname(new), exist_ok=True)
        subprocess.check_call(["git", "mv", old, new])
    for f, text in rewrites.items():
        with open(where(f), "w", encoding="utf8") as out:
            out.write(text)


if __name__ == "__main__":
    main()
